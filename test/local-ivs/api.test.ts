import {
  ChannelNotBroadcasting,
  ConflictException,
  CreateChannelCommand,
  CreateRecordingConfigurationCommand,
  CreateStreamKeyCommand,
  DeleteChannelCommand,
  DeletePlaybackKeyPairCommand,
  DeleteStreamKeyCommand,
  GetChannelCommand,
  GetRecordingConfigurationCommand,
  GetStreamCommand,
  GetStreamKeyCommand,
  ImportPlaybackKeyPairCommand,
  IvsClient,
  ListPlaybackKeyPairsCommand,
  ListStreamKeysCommand,
  ResourceNotFoundException,
  ServiceQuotaExceededException,
  StopStreamCommand,
  UpdateChannelCommand,
  ThrottlingException,
  ValidationException,
} from '@aws-sdk/client-ivs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IvsStandIn, startIvsStandIn } from '../../scripts/local/ivs/api.ts';
import { localIvsClientConfig, playbackKeyPair } from './playback-token.ts';

/**
 * The IVS control-plane stand-in, driven by the real @aws-sdk/client-ivs: if the SDK can
 * serialise our requests and parse our answers and errors, the platform's IVS code can too.
 */
let ivs: IvsStandIn;
let client: IvsClient;
beforeAll(async () => {
  ivs = await startIvsStandIn({ throttle: false });
  client = new IvsClient({ ...localIvsClientConfig(ivs.endpoint), maxAttempts: 1 });
});
afterAll(async () => {
  client.destroy();
  await ivs.stop();
});

const rejection = async (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error,
  );

describe('channels and stream keys', () => {
  it('creates a channel with its stream key, gets it, lists and replaces the key, deletes the channel', async () => {
    const created = await client.send(
      new CreateChannelCommand({
        name: 'creator-42',
        latencyMode: 'LOW',
        type: 'STANDARD',
        authorized: true,
        tags: { creator: '42' },
      }),
    );
    const channel = created.channel!;
    expect(channel.arn).toMatch(/^arn:aws:ivs:us-east-1:000000000000:channel\/[A-Za-z0-9]{12}$/);
    expect(channel.ingestEndpoint).toMatch(/^[a-f0-9]{12}\.global-contribute\.live-video\.net$/);
    const id = channel.arn!.split('/')[1];
    expect(channel.playbackUrl).toBe(
      `${ivs.endpoint}/api/video/v1/us-east-1.000000000000.channel.${id}.m3u8`,
    );
    expect(channel).toMatchObject({
      name: 'creator-42',
      authorized: true,
      latencyMode: 'LOW',
      tags: { creator: '42' },
    });
    expect(created.streamKey).toMatchObject({ channelArn: channel.arn });
    expect(created.streamKey!.value).toMatch(/^sk_us-east-1_/);

    const got = await client.send(new GetChannelCommand({ arn: channel.arn }));
    expect(got.channel).toEqual(channel);

    // One stream key per channel, like IVS's quota.
    const second = await rejection(client.send(new CreateStreamKeyCommand({ channelArn: channel.arn })));
    expect(second).toBeInstanceOf(ServiceQuotaExceededException);
    expect((second as ServiceQuotaExceededException).$metadata.httpStatusCode).toBe(402);

    const keys = await client.send(new ListStreamKeysCommand({ channelArn: channel.arn }));
    expect(keys.streamKeys).toEqual([{ arn: created.streamKey!.arn, channelArn: channel.arn, tags: {} }]);
    const key = await client.send(new GetStreamKeyCommand({ arn: created.streamKey!.arn }));
    expect(key.streamKey!.value).toBe(created.streamKey!.value);

    await client.send(new DeleteStreamKeyCommand({ arn: created.streamKey!.arn }));
    const replaced = await client.send(new CreateStreamKeyCommand({ channelArn: channel.arn }));
    expect(replaced.streamKey!.value).not.toBe(created.streamKey!.value);

    await client.send(new DeleteChannelCommand({ arn: channel.arn }));
    expect(await rejection(client.send(new GetChannelCommand({ arn: channel.arn })))).toBeInstanceOf(
      ResourceNotFoundException,
    );
    // The channel's keys go with it.
    expect(
      await rejection(client.send(new GetStreamKeyCommand({ arn: replaced.streamKey!.arn }))),
    ).toBeInstanceOf(ResourceNotFoundException);
  });

  it('updates an offline channel: only the fields sent change', async () => {
    const { channel } = await client.send(
      new CreateChannelCommand({ name: 'before', latencyMode: 'NORMAL' }),
    );
    const { channel: updated } = await client.send(
      new UpdateChannelCommand({ arn: channel!.arn, name: 'after', authorized: true }),
    );
    expect(updated).toEqual({ ...channel, name: 'after', authorized: true });
    expect((await client.send(new GetChannelCommand({ arn: channel!.arn }))).channel).toEqual(updated);
  });

  it('validates input as IVS does', async () => {
    const badName = await rejection(client.send(new CreateChannelCommand({ name: 'has spaces' })));
    expect(badName).toBeInstanceOf(ValidationException);
    expect((badName as ValidationException).exceptionMessage).toContain('name');
    const badArn = await rejection(client.send(new GetChannelCommand({ arn: 'not-an-arn' })));
    expect(badArn).toBeInstanceOf(ValidationException);
    expect((badArn as ValidationException).$metadata.httpStatusCode).toBe(400);
    const missingConfig = await rejection(
      client.send(
        new CreateChannelCommand({
          recordingConfigurationArn:
            'arn:aws:ivs:us-east-1:000000000000:recording-configuration/nope12345678',
        }),
      ),
    );
    expect(missingConfig).toBeInstanceOf(ResourceNotFoundException);
  });

  it('GetStream and StopStream on an offline channel are ChannelNotBroadcasting; a live channel cannot be deleted', async () => {
    const { channel } = await client.send(new CreateChannelCommand({ name: 'offline' }));
    const offline = await rejection(client.send(new GetStreamCommand({ channelArn: channel!.arn })));
    expect(offline).toBeInstanceOf(ChannelNotBroadcasting);
    expect((offline as ChannelNotBroadcasting).$metadata.httpStatusCode).toBe(404);
    expect(await rejection(client.send(new StopStreamCommand({ channelArn: channel!.arn })))).toBeInstanceOf(
      ChannelNotBroadcasting,
    );

    const startTime = new Date('2026-11-24T06:00:00Z');
    ivs.state.streams.set(channel!.arn!, {
      channelArn: channel!.arn!,
      streamId: 'st-test',
      startTime,
      health: 'HEALTHY',
      viewerCount: 7,
    });
    const { stream } = await client.send(new GetStreamCommand({ channelArn: channel!.arn }));
    expect(stream).toMatchObject({
      streamId: 'st-test',
      state: 'LIVE',
      health: 'HEALTHY',
      viewerCount: 7,
      startTime,
    });
    expect(await rejection(client.send(new DeleteChannelCommand({ arn: channel!.arn })))).toBeInstanceOf(
      ConflictException,
    );
    expect(
      await rejection(client.send(new UpdateChannelCommand({ arn: channel!.arn, authorized: true }))),
    ).toBeInstanceOf(ConflictException);
    await client.send(new StopStreamCommand({ channelArn: channel!.arn }));
    expect(await rejection(client.send(new GetStreamCommand({ channelArn: channel!.arn })))).toBeInstanceOf(
      ChannelNotBroadcasting,
    );
  });
});

describe('recording configurations and playback keys', () => {
  it('creates and gets a recording configuration, and a channel records with it', async () => {
    const { recordingConfiguration } = await client.send(
      new CreateRecordingConfigurationCommand({
        name: 'vod',
        destinationConfiguration: { s3: { bucketName: 'creator-vod' } },
      }),
    );
    expect(recordingConfiguration).toMatchObject({
      state: 'ACTIVE',
      destinationConfiguration: { s3: { bucketName: 'creator-vod' } },
      thumbnailConfiguration: { recordingMode: 'INTERVAL', targetIntervalSeconds: 60 },
    });
    const got = await client.send(new GetRecordingConfigurationCommand({ arn: recordingConfiguration!.arn }));
    expect(got.recordingConfiguration).toEqual(recordingConfiguration);
    const { channel } = await client.send(
      new CreateChannelCommand({ recordingConfigurationArn: recordingConfiguration!.arn }),
    );
    expect(channel!.recordingConfigurationArn).toBe(recordingConfiguration!.arn);
  });

  it('imports at most 3 ES384 public keys, refuses other keys and duplicates, lists and deletes them', async () => {
    const pairs = [playbackKeyPair(), playbackKeyPair(), playbackKeyPair()];
    const imported = [];
    for (const [i, pair] of pairs.entries()) {
      const { keyPair } = await client.send(
        new ImportPlaybackKeyPairCommand({ publicKeyMaterial: pair.publicKeyPem, name: `key-${i}` }),
      );
      expect(keyPair!.arn).toMatch(/^arn:aws:ivs:us-east-1:000000000000:playback-key\/[A-Za-z0-9]{12}$/);
      expect(keyPair!.fingerprint).toMatch(/^([0-9a-f]{2}:){15}[0-9a-f]{2}$/);
      imported.push(keyPair!);
    }
    expect(
      await rejection(
        client.send(new ImportPlaybackKeyPairCommand({ publicKeyMaterial: pairs[0]!.publicKeyPem })),
      ),
    ).toBeInstanceOf(ConflictException);
    expect(
      await rejection(
        client.send(new ImportPlaybackKeyPairCommand({ publicKeyMaterial: playbackKeyPair().publicKeyPem })),
      ),
    ).toBeInstanceOf(ServiceQuotaExceededException);
    expect(
      await rejection(client.send(new ImportPlaybackKeyPairCommand({ publicKeyMaterial: 'not a key' }))),
    ).toBeInstanceOf(ValidationException);

    const listed = await client.send(new ListPlaybackKeyPairsCommand({}));
    expect(listed.keyPairs!.map((k) => k.name)).toEqual(['key-0', 'key-1', 'key-2']);
    await client.send(new DeletePlaybackKeyPairCommand({ arn: imported[0]!.arn }));
    expect((await client.send(new ListPlaybackKeyPairsCommand({}))).keyPairs).toHaveLength(2);
  });
});

describe('throttling', () => {
  it('defaults to 5 requests per second per operation (burst 5), refilling with the clock', async () => {
    let clock = 0;
    const throttled = await startIvsStandIn({ now: () => clock });
    const noRetry = new IvsClient({ ...localIvsClientConfig(throttled.endpoint), maxAttempts: 1 });
    const getChannel = (arn: string) =>
      noRetry.send(new GetChannelCommand({ arn })).then(
        () => 'ok',
        (error: unknown) => (error as Error).name,
      );
    try {
      const { channel } = await noRetry.send(new CreateChannelCommand({ name: 'clocked' }));
      const arn = channel!.arn!;
      const burst = [];
      for (let i = 0; i < 6; i++) burst.push(await getChannel(arn));
      expect(burst).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'ThrottlingException']);
      // Another operation has its own bucket.
      expect((await noRetry.send(new ListStreamKeysCommand({ channelArn: arn }))).streamKeys).toHaveLength(1);
      clock += 200; // one token at 5 per second
      expect([await getChannel(arn), await getChannel(arn)]).toEqual(['ok', 'ThrottlingException']);
      clock += 10_000; // the bucket holds at most 5
      const refilled = [];
      for (let i = 0; i < 6; i++) refilled.push(await getChannel(arn));
      expect(refilled.filter((r) => r === 'ok')).toHaveLength(5);
    } finally {
      noRetry.destroy();
      await throttled.stop();
    }
  });

  it('answers ThrottlingException (429) once the bucket is empty, and the SDK retry succeeds after refill', async () => {
    const throttled = await startIvsStandIn({ throttle: { ratePerSecond: 2 } });
    const noRetry = new IvsClient({ ...localIvsClientConfig(throttled.endpoint), maxAttempts: 1 });
    const withRetry = new IvsClient({ ...localIvsClientConfig(throttled.endpoint), maxAttempts: 5 });
    try {
      const { channel } = await noRetry.send(new CreateChannelCommand({ name: 'busy' }));
      const results = await Promise.allSettled(
        Array.from({ length: 4 }, () => noRetry.send(new GetChannelCommand({ arn: channel!.arn }))),
      );
      const failures = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
      // Burst 2: two succeed, the rest are throttled.
      expect(failures).toHaveLength(2);
      for (const failure of failures) {
        expect(failure).toBeInstanceOf(ThrottlingException);
        expect((failure as ThrottlingException).$metadata.httpStatusCode).toBe(429);
      }
      // The bucket is empty now; the SDK's standard retry backs off and gets through.
      const retried = await withRetry.send(new GetChannelCommand({ arn: channel!.arn }));
      expect(retried.channel!.arn).toBe(channel!.arn);
      expect(retried.$metadata.attempts).toBeGreaterThan(1);
    } finally {
      noRetry.destroy();
      withRetry.destroy();
      await throttled.stop();
    }
  });
});
