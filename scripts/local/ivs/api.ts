import { createHash, createPublicKey, type KeyObject, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as z from 'zod';
import { createOriginHandler, playbackPath } from './origin.ts';
import { ensureTestPattern, type TestPattern } from './test-pattern.ts';

/**
 * The local stand-in for the Amazon IVS control plane (low-latency streaming API). The real
 * `@aws-sdk/client-ivs` talks to it through an `endpoint` override: REST-JSON, `POST /<Operation>`
 * with a JSON body, errors named by the `x-amzn-ErrorType` header with an `exceptionMessage` body.
 * It keeps its state in memory and enforces what AWS enforces and the platform relies on: input
 * validation, not-found, one stream key per channel, at most 3 playback key pairs, no updating
 * or deleting a live channel, GetStream/StopStream on an offline channel (ChannelNotBroadcasting), and a token
 * bucket per operation on channel and stream-key operations (ThrottlingException, HTTP 429) so
 * callers' retry and backoff run locally. docs/local-ivs.md lists what differs from IVS.
 */

export const REGION = 'us-east-1';
export const ACCOUNT = '000000000000';
const arnOf = (resource: string, id: string) => `arn:aws:ivs:${REGION}:${ACCOUNT}:${resource}/${id}`;

const ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** A random id of `length` letters and digits, like IVS resource ids (`AbCdef1G2hij`). */
export const randomId = (length: number): string =>
  Array.from(randomBytes(length), (byte) => ALPHANUMERIC[byte % ALPHANUMERIC.length]).join('');

export type IvsErrorType =
  | 'ChannelNotBroadcasting'
  | 'ConflictException'
  | 'InternalServerException'
  | 'ResourceNotFoundException'
  | 'ServiceQuotaExceededException'
  | 'ThrottlingException'
  | 'ValidationException';

/** HTTP statuses from the IVS model (client-ivs error schemas). */
const ERROR_STATUS: Record<IvsErrorType, number> = {
  ChannelNotBroadcasting: 404,
  ConflictException: 409,
  InternalServerException: 500,
  ResourceNotFoundException: 404,
  ServiceQuotaExceededException: 402,
  ThrottlingException: 429,
  ValidationException: 400,
};

export class IvsError extends Error {
  constructor(
    readonly type: IvsErrorType,
    message: string,
  ) {
    super(message);
  }
}

export interface ChannelRecord {
  arn: string;
  name: string;
  latencyMode: 'NORMAL' | 'LOW';
  type: 'BASIC' | 'STANDARD' | 'ADVANCED_SD' | 'ADVANCED_HD';
  authorized: boolean;
  insecureIngest: boolean;
  recordingConfigurationArn: string;
  tags: Record<string, string>;
  ingestEndpoint: string;
  srtPassphrase: string;
}

export interface StreamKeyRecord {
  arn: string;
  value: string;
  channelArn: string;
  tags: Record<string, string>;
}

export interface RecordingConfigurationRecord {
  arn: string;
  name: string;
  bucketName: string;
  tags: Record<string, string>;
  recordingReconnectWindowSeconds: number;
  thumbnailConfiguration: {
    recordingMode: 'INTERVAL' | 'DISABLED';
    targetIntervalSeconds: number;
    resolution?: string;
    storage: Array<'SEQUENTIAL' | 'LATEST'>;
  };
  renditionConfiguration: { renditionSelection: 'ALL' | 'NONE' | 'CUSTOM'; renditions: string[] };
}

export interface PlaybackKeyPairRecord {
  arn: string;
  name: string;
  fingerprint: string;
  tags: Record<string, string>;
  publicKey: KeyObject;
}

/** A channel's live stream, as GetStream reports it; the broadcaster creates and ends it. */
export interface LiveStream {
  channelArn: string;
  streamId: string;
  startTime: Date;
  health: 'HEALTHY' | 'STARVING' | 'UNKNOWN';
  viewerCount: number;
}

type StopStreamListener = (channelArn: string) => void;

/**
 * Everything the stand-in knows, shared by the API, the playback origin (channels, public keys,
 * revocations, live streams) and the broadcaster. Plain maps keyed by ARN.
 */
export class IvsState {
  readonly channels = new Map<string, ChannelRecord>();
  readonly streamKeys = new Map<string, StreamKeyRecord>();
  readonly recordingConfigurations = new Map<string, RecordingConfigurationRecord>();
  readonly playbackKeyPairs = new Map<string, PlaybackKeyPairRecord>();
  /** Live streams by channel ARN. */
  readonly streams = new Map<string, LiveStream>();
  /**
   * Channels whose stream is ending (StopStream or the encoder gone) until its Stream End event
   * is out: IVS refuses to delete them meanwhile, as it does a live channel (its API reference,
   * DeleteChannel: "call StopStream, wait for the Amazon EventBridge 'Stream End' event ..., then
   * call DeleteChannel").
   */
  readonly ending = new Set<string>();
  /** Timed metadata put on each live channel (PutMetadata), newest last: the media playlist carries it. */
  readonly metadata = new Map<string, Array<{ at: Date; metadata: string }>>();
  /** PutMetadata's quotas: 5 a second per channel, 155 a second per account (IVS's defaults). */
  private readonly metadataBuckets = new Map<string, TokenBucket>();
  /** `viewerSessionVersionsLessThanOrEqualTo` by channel ARN and viewer id. */
  private readonly revocations = new Map<string, number>();
  private readonly stopListeners: StopStreamListener[] = [];

  channel(arn: string): ChannelRecord {
    const channel = this.channels.get(arn);
    if (!channel) throw new IvsError('ResourceNotFoundException', `Channel ${arn} not found`);
    return channel;
  }

  revokeViewer(channelArn: string, viewerId: string, versionsUpTo: number): void {
    const key = `${channelArn}\n${viewerId}`;
    this.revocations.set(key, Math.max(versionsUpTo, this.revocations.get(key) ?? -1));
  }

  /** Whether a viewer session (viewer id and session version) has been revoked on a channel. */
  isRevoked(channelArn: string, viewerId: string, sessionVersion: number): boolean {
    const upTo = this.revocations.get(`${channelArn}\n${viewerId}`);
    return upTo !== undefined && sessionVersion <= upTo;
  }

  /** Takes a PutMetadata call from the channel's and the account's buckets; false: throttled. */
  takeMetadataSlot(channelArn: string): boolean {
    const bucket = (key: string, rate: number) => {
      const existing = this.metadataBuckets.get(key) ?? new TokenBucket(rate, rate, Date.now);
      this.metadataBuckets.set(key, existing);
      return existing;
    };
    return bucket(channelArn, METADATA_CHANNEL_TPS).take() && bucket('account', METADATA_ACCOUNT_TPS).take();
  }

  /** StopStream disconnects the encoder: the broadcaster listens to end the stream with its events. */
  onStopStream(listener: StopStreamListener): void {
    this.stopListeners.push(listener);
  }

  requestStop(channelArn: string): void {
    if (this.stopListeners.length === 0) this.streams.delete(channelArn);
    for (const listener of this.stopListeners) listener(channelArn);
  }
}

/** IVS PutMetadata quotas: calls a second per channel and per account, and the payload's bytes. */
export const METADATA_CHANNEL_TPS = 5;
export const METADATA_ACCOUNT_TPS = 155;
export const METADATA_MAX_BYTES = 1024;

/** A token bucket: `ratePerSecond` refill, `burst` capacity. */
class TokenBucket {
  private tokens: number;
  private last: number;
  constructor(
    private readonly ratePerSecond: number,
    private readonly burst: number,
    private readonly now: () => number,
  ) {
    this.tokens = burst;
    this.last = now();
  }
  take(): boolean {
    const now = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.ratePerSecond);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

export interface ThrottleOptions {
  /** Requests per second per operation (IVS: 5 TPS for the channel and stream-key operations). */
  ratePerSecond: number;
  /** Bucket capacity; defaults to `ratePerSecond`. */
  burst?: number;
}

// --- Input schemas (the IVS API reference's constraints) ---

const arnSchema = (resource: string) =>
  z
    .string()
    .regex(
      new RegExp(`^arn:aws:ivs:[a-z0-9-]+:[0-9]+:${resource}/[a-zA-Z0-9-]+$`),
      `invalid ${resource} ARN`,
    );
const channelArn = arnSchema('channel');
const tags = z.record(z.string().min(1).max(128), z.string().max(256)).default({});
const name = z
  .string()
  .max(128)
  .regex(/^[a-zA-Z0-9-_]*$/);
const resourceName = name.default('');
const latencyMode = z.enum(['NORMAL', 'LOW']);
const channelType = z.enum(['BASIC', 'STANDARD', 'ADVANCED_SD', 'ADVANCED_HD']);
const recordingConfigurationArn = z.union([arnSchema('recording-configuration'), z.literal('')]);
const page = {
  nextToken: z.string().max(1024).optional(),
  maxResults: z.number().int().min(1).max(100).default(100),
};

const paginate = <T>(items: T[], input: { nextToken?: string; maxResults: number }) => {
  const start =
    input.nextToken === undefined ? 0 : Number(Buffer.from(input.nextToken, 'base64url').toString());
  if (!Number.isInteger(start) || start < 0) throw new IvsError('ValidationException', 'invalid nextToken');
  const end = start + input.maxResults;
  return {
    items: items.slice(start, end),
    nextToken: end < items.length ? Buffer.from(String(end)).toString('base64url') : undefined,
  };
};

// --- Views: the response shapes of the IVS model ---

const channelView = (channel: ChannelRecord, playbackOrigin: string) => ({
  arn: channel.arn,
  name: channel.name,
  latencyMode: channel.latencyMode,
  type: channel.type,
  recordingConfigurationArn: channel.recordingConfigurationArn,
  ingestEndpoint: channel.ingestEndpoint,
  playbackUrl: `${playbackOrigin}/api/video/v1/${playbackPath(channel.arn)}`,
  authorized: channel.authorized,
  tags: channel.tags,
  insecureIngest: channel.insecureIngest,
  preset: '',
  playbackRestrictionPolicyArn: '',
  srt: {
    endpoint: channel.ingestEndpoint.replace('global-contribute', 'srt'),
    passphrase: channel.srtPassphrase,
  },
  containerFormat: 'TS',
  multitrackInputConfiguration: { enabled: false, policy: 'ALLOW', maximumResolution: 'FULL_HD' },
});

const streamKeyView = ({ arn, value, channelArn, tags }: StreamKeyRecord) => ({
  arn,
  value,
  channelArn,
  tags,
});

const recordingConfigurationView = (config: RecordingConfigurationRecord) => ({
  arn: config.arn,
  name: config.name,
  state: 'ACTIVE',
  destinationConfiguration: { s3: { bucketName: config.bucketName } },
  tags: config.tags,
  thumbnailConfiguration: config.thumbnailConfiguration,
  recordingReconnectWindowSeconds: config.recordingReconnectWindowSeconds,
  renditionConfiguration: config.renditionConfiguration,
});

const streamView = (stream: LiveStream, playbackOrigin: string) => ({
  channelArn: stream.channelArn,
  streamId: stream.streamId,
  playbackUrl: `${playbackOrigin}/api/video/v1/${playbackPath(stream.channelArn)}`,
  startTime: stream.startTime.toISOString(),
  state: 'LIVE',
  health: stream.health,
  viewerCount: stream.viewerCount,
});

// --- Operations ---

interface Context {
  state: IvsState;
  playbackOrigin: string;
}

interface Operation {
  /** Whether the operation draws from its token bucket (the channel and stream-key operations). */
  throttled: boolean;
  /** 204 operations (the deletes with no output) answer with an empty body. */
  status: 200 | 204;
  handle(body: unknown, context: Context): unknown;
}

const operation = <S extends z.ZodType>(
  input: S,
  run: (input: z.infer<S>, context: Context) => unknown,
  options: { throttled?: boolean; status?: 200 | 204 } = {},
): Operation => ({
  throttled: options.throttled ?? false,
  status: options.status ?? 200,
  handle: (body, context) => {
    const parsed = input.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new IvsError('ValidationException', `${issue?.path.join('.') || 'input'}: ${issue?.message}`);
    }
    return run(parsed.data, context);
  },
});

const streamKeyFor = (state: IvsState, channelArn: string) =>
  [...state.streamKeys.values()].find((key) => key.channelArn === channelArn);

const createStreamKey = (state: IvsState, channelArn: string, keyTags: Record<string, string>) => {
  // IVS's quota: one stream key per channel.
  if (streamKeyFor(state, channelArn)) {
    throw new IvsError('ServiceQuotaExceededException', 'Stream key quota exceeded: 1 per channel');
  }
  const key: StreamKeyRecord = {
    arn: arnOf('stream-key', randomId(12)),
    value: `sk_${REGION}_${randomId(36)}`,
    channelArn,
    tags: keyTags,
  };
  state.streamKeys.set(key.arn, key);
  return key;
};

const requireRecordingConfiguration = (state: IvsState, arn: string | undefined): void => {
  if (arn && !state.recordingConfigurations.has(arn)) {
    throw new IvsError('ResourceNotFoundException', `Recording configuration ${arn} not found`);
  }
};

const liveStream = (state: IvsState, arn: string): LiveStream => {
  state.channel(arn);
  const stream = state.streams.get(arn);
  if (!stream) throw new IvsError('ChannelNotBroadcasting', `Channel ${arn} is not broadcasting`);
  return stream;
};

/** PEM (SPKI) public key of an ES384 key pair; IVS refuses anything else. */
const p384PublicKey = (pem: string): KeyObject => {
  let key: KeyObject;
  try {
    key = createPublicKey(pem);
  } catch {
    throw new IvsError('ValidationException', 'publicKeyMaterial is not a PEM public key');
  }
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'secp384r1') {
    throw new IvsError('ValidationException', 'publicKeyMaterial must be an ECDSA P-384 public key');
  }
  return key;
};

const MAX_PLAYBACK_KEY_PAIRS = 3;

const OPERATIONS: Record<string, Operation> = {
  CreateChannel: operation(
    z.object({
      name: resourceName,
      latencyMode: latencyMode.default('LOW'),
      type: channelType.default('STANDARD'),
      authorized: z.boolean().default(false),
      insecureIngest: z.boolean().default(false),
      recordingConfigurationArn: recordingConfigurationArn.default(''),
      tags,
    }),
    (input, { state, playbackOrigin }) => {
      requireRecordingConfiguration(state, input.recordingConfigurationArn);
      const channel: ChannelRecord = {
        ...input,
        arn: arnOf('channel', randomId(12)),
        ingestEndpoint: `${randomBytes(6).toString('hex')}.global-contribute.live-video.net`,
        srtPassphrase: randomId(32),
      };
      state.channels.set(channel.arn, channel);
      const streamKey = createStreamKey(state, channel.arn, {});
      return { channel: channelView(channel, playbackOrigin), streamKey: streamKeyView(streamKey) };
    },
    { throttled: true },
  ),
  GetChannel: operation(
    z.object({ arn: channelArn }),
    ({ arn }, { state, playbackOrigin }) => ({ channel: channelView(state.channel(arn), playbackOrigin) }),
    { throttled: true },
  ),
  ListChannels: operation(
    z.object({
      filterByName: z.string().optional(),
      filterByRecordingConfigurationArn: z.string().optional(),
      ...page,
    }),
    (input, { state }) => {
      const matching = [...state.channels.values()].filter(
        (c) =>
          (input.filterByName === undefined || c.name === input.filterByName) &&
          (input.filterByRecordingConfigurationArn === undefined ||
            c.recordingConfigurationArn === input.filterByRecordingConfigurationArn),
      );
      const { items, nextToken } = paginate(matching, input);
      return {
        channels: items.map(
          ({
            arn,
            name,
            latencyMode,
            authorized,
            recordingConfigurationArn,
            tags,
            insecureIngest,
            type,
          }) => ({
            arn,
            name,
            latencyMode,
            authorized,
            recordingConfigurationArn,
            tags,
            insecureIngest,
            type,
            preset: '',
            playbackRestrictionPolicyArn: '',
          }),
        ),
        nextToken,
      };
    },
    { throttled: true },
  ),
  UpdateChannel: operation(
    z.object({
      arn: channelArn,
      name: name.optional(),
      latencyMode: latencyMode.optional(),
      type: channelType.optional(),
      authorized: z.boolean().optional(),
      insecureIngest: z.boolean().optional(),
      recordingConfigurationArn: recordingConfigurationArn.optional(),
    }),
    ({ arn, ...changes }, { state, playbackOrigin }) => {
      const channel = state.channel(arn);
      // IVS: stop the stream, update the channel, restart the stream.
      if (state.streams.has(arn) || state.ending.has(arn))
        throw new IvsError('ConflictException', `Channel ${arn} is live`);
      requireRecordingConfiguration(state, changes.recordingConfigurationArn);
      Object.assign(
        channel,
        Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)),
      );
      return { channel: channelView(channel, playbackOrigin) };
    },
    { throttled: true },
  ),
  DeleteChannel: operation(
    z.object({ arn: channelArn }),
    ({ arn }, { state }) => {
      state.channel(arn);
      // IVS refuses to delete a live channel: StopStream, wait for Stream End, then delete.
      if (state.streams.has(arn) || state.ending.has(arn))
        throw new IvsError('ConflictException', `Channel ${arn} is live`);
      state.channels.delete(arn);
      for (const key of state.streamKeys.values())
        if (key.channelArn === arn) state.streamKeys.delete(key.arn);
      return {};
    },
    { throttled: true, status: 204 },
  ),
  CreateStreamKey: operation(
    z.object({ channelArn, tags }),
    (input, { state }) => {
      state.channel(input.channelArn);
      return { streamKey: streamKeyView(createStreamKey(state, input.channelArn, input.tags)) };
    },
    { throttled: true },
  ),
  GetStreamKey: operation(
    z.object({ arn: arnSchema('stream-key') }),
    ({ arn }, { state }) => {
      const key = state.streamKeys.get(arn);
      if (!key) throw new IvsError('ResourceNotFoundException', `Stream key ${arn} not found`);
      return { streamKey: streamKeyView(key) };
    },
    { throttled: true },
  ),
  ListStreamKeys: operation(
    z.object({ channelArn, ...page }),
    (input, { state }) => {
      state.channel(input.channelArn);
      const keys = [...state.streamKeys.values()].filter((key) => key.channelArn === input.channelArn);
      const { items, nextToken } = paginate(keys, input);
      return { streamKeys: items.map(({ arn, channelArn, tags }) => ({ arn, channelArn, tags })), nextToken };
    },
    { throttled: true },
  ),
  DeleteStreamKey: operation(
    z.object({ arn: arnSchema('stream-key') }),
    ({ arn }, { state }) => {
      if (!state.streamKeys.delete(arn))
        throw new IvsError('ResourceNotFoundException', `Stream key ${arn} not found`);
      return {};
    },
    { throttled: true, status: 204 },
  ),
  GetStream: operation(z.object({ channelArn }), (input, { state, playbackOrigin }) => ({
    stream: streamView(liveStream(state, input.channelArn), playbackOrigin),
  })),
  ListStreams: operation(
    z.object({
      filterBy: z.object({ health: z.enum(['HEALTHY', 'STARVING', 'UNKNOWN']).optional() }).default({}),
      ...page,
    }),
    (input, { state }) => {
      const matching = [...state.streams.values()].filter(
        (s) => input.filterBy.health === undefined || s.health === input.filterBy.health,
      );
      const { items, nextToken } = paginate(matching, input);
      return {
        streams: items.map((s) => ({
          channelArn: s.channelArn,
          streamId: s.streamId,
          state: 'LIVE',
          health: s.health,
          viewerCount: s.viewerCount,
          startTime: s.startTime.toISOString(),
        })),
        nextToken,
      };
    },
  ),
  // Timed metadata into the live stream: ChannelNotBroadcasting when offline, ThrottlingException
  // past 5 a second on the channel or 155 on the account, at most 1 KB (UTF-8).
  PutMetadata: operation(
    z.object({
      channelArn,
      metadata: z
        .string()
        .min(1)
        .refine((text) => Buffer.byteLength(text) <= METADATA_MAX_BYTES, 'metadata is over 1 KB'),
    }),
    (input, { state }) => {
      liveStream(state, input.channelArn);
      if (!state.takeMetadataSlot(input.channelArn))
        throw new IvsError('ThrottlingException', 'Rate exceeded');
      const list = state.metadata.get(input.channelArn) ?? [];
      list.push({ at: new Date(), metadata: input.metadata });
      state.metadata.set(input.channelArn, list.slice(-100));
      return {};
    },
    { status: 204 },
  ),
  StopStream: operation(z.object({ channelArn }), (input, { state }) => {
    liveStream(state, input.channelArn);
    state.requestStop(input.channelArn);
    return {};
  }),
  CreateRecordingConfiguration: operation(
    z.object({
      name: resourceName,
      destinationConfiguration: z.object({
        s3: z.object({
          bucketName: z
            .string()
            .min(3)
            .max(63)
            .regex(/^[a-z0-9-.]+$/),
        }),
      }),
      tags,
      recordingReconnectWindowSeconds: z.number().int().min(0).max(300).default(0),
      thumbnailConfiguration: z
        .object({
          recordingMode: z.enum(['INTERVAL', 'DISABLED']).default('INTERVAL'),
          targetIntervalSeconds: z.number().int().min(1).max(60).default(60),
          resolution: z.enum(['SD', 'HD', 'FULL_HD', 'LOWEST_RESOLUTION']).optional(),
          storage: z.array(z.enum(['SEQUENTIAL', 'LATEST'])).default(['SEQUENTIAL']),
        })
        .default({ recordingMode: 'INTERVAL', targetIntervalSeconds: 60, storage: ['SEQUENTIAL'] }),
      renditionConfiguration: z
        .object({
          renditionSelection: z.enum(['ALL', 'NONE', 'CUSTOM']).default('ALL'),
          renditions: z.array(z.enum(['SD', 'HD', 'FULL_HD', 'LOWEST_RESOLUTION'])).default([]),
        })
        .default({ renditionSelection: 'ALL', renditions: [] }),
    }),
    (input, { state }) => {
      const config: RecordingConfigurationRecord = {
        arn: arnOf('recording-configuration', randomId(12)),
        name: input.name,
        bucketName: input.destinationConfiguration.s3.bucketName,
        tags: input.tags,
        recordingReconnectWindowSeconds: input.recordingReconnectWindowSeconds,
        thumbnailConfiguration: input.thumbnailConfiguration,
        renditionConfiguration: input.renditionConfiguration,
      };
      state.recordingConfigurations.set(config.arn, config);
      return { recordingConfiguration: recordingConfigurationView(config) };
    },
  ),
  GetRecordingConfiguration: operation(
    z.object({ arn: arnSchema('recording-configuration') }),
    ({ arn }, { state }) => {
      const config = state.recordingConfigurations.get(arn);
      if (!config)
        throw new IvsError('ResourceNotFoundException', `Recording configuration ${arn} not found`);
      return { recordingConfiguration: recordingConfigurationView(config) };
    },
  ),
  ImportPlaybackKeyPair: operation(
    z.object({ publicKeyMaterial: z.string().min(1), name: resourceName, tags }),
    (input, { state }) => {
      const publicKey = p384PublicKey(input.publicKeyMaterial);
      const der = publicKey.export({ type: 'spki', format: 'der' });
      const fingerprint = (createHash('md5').update(der).digest('hex').match(/../g) ?? []).join(':');
      if ([...state.playbackKeyPairs.values()].some((pair) => pair.fingerprint === fingerprint)) {
        throw new IvsError('ConflictException', 'This public key has already been imported');
      }
      if (state.playbackKeyPairs.size >= MAX_PLAYBACK_KEY_PAIRS) {
        throw new IvsError(
          'ServiceQuotaExceededException',
          `Playback key pair quota exceeded: ${MAX_PLAYBACK_KEY_PAIRS}`,
        );
      }
      const pair = {
        arn: arnOf('playback-key', randomId(12)),
        name: input.name,
        fingerprint,
        tags: input.tags,
        publicKey,
      };
      state.playbackKeyPairs.set(pair.arn, pair);
      return { keyPair: { arn: pair.arn, name: pair.name, fingerprint, tags: pair.tags } };
    },
  ),
  ListPlaybackKeyPairs: operation(z.object(page), (input, { state }) => {
    const { items, nextToken } = paginate([...state.playbackKeyPairs.values()], input);
    return { keyPairs: items.map(({ arn, name, tags }) => ({ arn, name, tags })), nextToken };
  }),
  DeletePlaybackKeyPair: operation(z.object({ arn: arnSchema('playback-key') }), ({ arn }, { state }) => {
    if (!state.playbackKeyPairs.delete(arn))
      throw new IvsError('ResourceNotFoundException', `Key pair ${arn} not found`);
    return {};
  }),
  StartViewerSessionRevocation: operation(
    z.object({
      channelArn,
      viewerId: z.string().min(1).max(40),
      viewerSessionVersionsLessThanOrEqualTo: z.number().int().min(0).default(0),
    }),
    (input, { state }) => {
      state.channel(input.channelArn);
      state.revokeViewer(input.channelArn, input.viewerId, input.viewerSessionVersionsLessThanOrEqualTo);
      return {};
    },
  ),
};

const readBody = async (req: IncomingMessage): Promise<unknown> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new IvsError('ValidationException', 'request body is not JSON');
  }
};

const sendError = (res: ServerResponse, error: IvsError): void => {
  res.writeHead(ERROR_STATUS[error.type], {
    'content-type': 'application/json',
    'x-amzn-ErrorType': error.type,
    'x-amzn-RequestId': randomUUID(),
  });
  res.end(JSON.stringify({ exceptionMessage: error.message }));
};

/** How long CreateChannel takes here (IVS answers it in a few hundred milliseconds). */
const CREATE_CHANNEL_MS = 150;

export interface ApiOptions {
  /** The base URL channels' playback URLs point at (the origin, served on the same server here). */
  playbackOrigin: () => string;
  /** Token buckets for the channel and stream-key operations; `false` turns throttling off. */
  throttle?: ThrottleOptions | false;
  now?: () => number;
}

/**
 * The control plane's request handler: answers `POST /<Operation>` and returns true, or returns
 * false for any other request (so it can share a server with the playback origin).
 */
export const createIvsApiHandler = (state: IvsState, options: ApiOptions) => {
  const throttle = options.throttle === undefined ? { ratePerSecond: 5 } : options.throttle;
  const now = options.now ?? Date.now;
  const buckets = new Map<string, TokenBucket>();
  const allowed = (name: string): boolean => {
    if (!throttle) return true;
    let bucket = buckets.get(name);
    if (!bucket) {
      bucket = new TokenBucket(throttle.ratePerSecond, throttle.burst ?? throttle.ratePerSecond, now);
      buckets.set(name, bucket);
    }
    return bucket.take();
  };
  return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const name = (req.url ?? '').slice(1).split('?')[0] ?? '';
    const op = Object.hasOwn(OPERATIONS, name) ? OPERATIONS[name] : undefined;
    if (req.method !== 'POST' || !op) return false;
    try {
      const body = await readBody(req);
      if (op.throttled && !allowed(name)) throw new IvsError('ThrottlingException', 'Rate exceeded');
      // Creating a channel takes IVS a moment (it allocates ingest and playback); so does it here,
      // so concurrent callers overlap as they would on AWS (the platform's one-channel rule is tested so).
      if (name === 'CreateChannel') await new Promise((done) => setTimeout(done, CREATE_CHANNEL_MS));
      const output = op.handle(body, { state, playbackOrigin: options.playbackOrigin() });
      res.writeHead(op.status, { 'content-type': 'application/json', 'x-amzn-RequestId': randomUUID() });
      res.end(op.status === 204 ? undefined : JSON.stringify(output));
    } catch (error) {
      if (!(error instanceof IvsError)) throw error;
      sendError(res, error);
    }
    return true;
  };
};

export interface IvsStandInOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  throttle?: ThrottleOptions | false;
  /** Where the HLS test pattern is cached (default `.local/ivs/pattern`). */
  patternDir?: string;
  now?: () => number;
  /** More requests served on the same port (the local platform's broadcast control): true when handled. */
  extra?: (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;
}

export interface IvsStandIn {
  /** The `endpoint` for `new IvsClient({ endpoint })`; the playback origin is served here too. */
  endpoint: string;
  state: IvsState;
  pattern: TestPattern;
  stop(): Promise<void>;
}

/**
 * Starts the IVS stand-in on 127.0.0.1: the control plane (`POST /<Operation>`) and the playback
 * origin (`GET /api/video/v1/...`) on one port, sharing one IvsState.
 */
export const startIvsStandIn = async (options: IvsStandInOptions = {}): Promise<IvsStandIn> => {
  const pattern = await ensureTestPattern(options.patternDir);
  const state = new IvsState();
  let endpoint = '';
  const api = createIvsApiHandler(state, {
    playbackOrigin: () => endpoint,
    throttle: options.throttle,
    now: options.now,
  });
  const playback = createOriginHandler(state, pattern, { now: options.now });
  const server = createServer((req, res) => {
    api(req, res)
      .then(async (handled) => {
        if (handled || playback(req, res) || (await options.extra?.(req, res))) return;
        res.writeHead(404, {
          'content-type': 'application/json',
          'x-amzn-ErrorType': 'UnknownOperationException',
        });
        res.end(JSON.stringify({ exceptionMessage: `No operation at ${req.method} ${req.url}` }));
      })
      .catch((error: unknown) => {
        console.error('IVS stand-in error', error);
        if (!res.headersSent) sendError(res, new IvsError('InternalServerException', 'internal error'));
        else res.destroy();
      });
  });
  await new Promise<void>((resolveListen) => server.listen(options.port ?? 0, '127.0.0.1', resolveListen));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    endpoint,
    state,
    pattern,
    stop: () =>
      new Promise<void>((resolveClose) => {
        server.closeAllConnections();
        server.close(() => resolveClose());
      }),
  };
};
