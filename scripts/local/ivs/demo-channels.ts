import { AsyncLocalStorage } from 'node:async_hooks';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CreateChannelCommand, IvsClient } from '@aws-sdk/client-ivs';
import type { CreatorRecord } from '../../../shared/catalog/model.ts';
import type { IvsChannel } from '../../../shared/ivs/channel-repository.ts';
import { createIvsApiHandler, type IvsStandIn } from './api.ts';
import type { Broadcaster } from './broadcaster.ts';

/**
 * The demo channels the seed shows live, made live the way any channel goes live
 * (docs/local-ivs.md "The seed's live channels"): each such creator gets an IVS channel in the
 * stand-in, provisioned with the parameters `POST /studio/channel` uses, the creator item its
 * `ivs` attribute and lookup item (shared/ivs/channel-repository.ts), and the broadcaster starts
 * a stream on it, whose EventBridge documents the IVS event function reduces into `live`.
 */

/** A creator of the catalogue shown live by the seed, with its IVS channel. */
export interface DemoChannel {
  creator: CreatorRecord & { live: NonNullable<CreatorRecord['live']> };
  channel: IvsChannel;
}

/**
 * Creates the IVS channels of `creators` in the stand-in through its API, with the real
 * `@aws-sdk/client-ivs` and the same input as `provisionChannel` (shared/studio/channel-writes.ts):
 * named after the creator, LOW latency, private, recorded, tagged with its id.
 *
 * Why not through the platform's own endpoint: IVS allows 5 CreateChannel calls a second per
 * account, and the stand-in enforces it (plus 150 ms per call), so ~70 demo channels would take
 * ~15 s on every start. On AWS such a bulk provisioning is an operator's one-off job (run once,
 * under a raised quota, or paced over a few seconds); locally the state is new on every start.
 * So the demo channels are made as that operator would, through an admin endpoint of the same
 * stand-in (same state, same operation code and validation, throttling off, CreateChannel's
 * 150 ms still paid, concurrently), which lives only for this call. The platform's endpoint keeps
 * its throttle, so the studio's retry and backoff still run against it.
 */
export const provisionDemoChannels = async (
  ivs: IvsStandIn,
  creators: readonly CreatorRecord[],
  recordingConfigurationArn: string,
): Promise<DemoChannel[]> => {
  const live = creators.filter((c): c is DemoChannel['creator'] => c.live !== null);
  if (live.length === 0) return [];
  const api = createIvsApiHandler(ivs.state, { playbackOrigin: () => ivs.endpoint, throttle: false });
  const server = createServer((req, res) => {
    api(req, res)
      .then((handled) => {
        if (!handled) res.writeHead(404).end();
      })
      .catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const admin = new IvsClient({
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    return await Promise.all(
      live.map(async (creator) => {
        const made = await admin.send(
          new CreateChannelCommand({
            name: creator.id,
            latencyMode: 'LOW',
            type: 'STANDARD',
            authorized: true,
            recordingConfigurationArn,
            tags: { creator_id: creator.id },
          }),
        );
        const { arn, playbackUrl, ingestEndpoint } = made.channel ?? {};
        if (!arn || !playbackUrl || !ingestEndpoint)
          throw new Error('CreateChannel answered without a channel');
        return {
          creator,
          channel: { channel_arn: arn, playback_url: playbackUrl, ingest_endpoint: ingestEndpoint },
        };
      }),
    );
  } finally {
    admin.destroy();
    server.closeAllConnections();
    await new Promise((closed) => server.close(closed));
  }
};

/**
 * Gives each demo channel its IVS Chat room, as `POST /studio/channel` makes one beside every
 * channel (docs/chat.md "Rooms"): `createRoom` (shared/chat/rooms.ts) run as that route's
 * function, so with its settings (review handler, logging configuration, stage) and its policy,
 * on the IVS Chat stand-in. The room goes onto the channel (`chat_room_arn`); its lookup item is
 * the caller's to write (`roomLookupItem`). Without it a viewer's first chat token on a live demo
 * channel answered 404 "This channel has no chat".
 */
export const openDemoChatRooms = async (
  channels: readonly DemoChannel[],
): Promise<Array<DemoChannel & { channel: { chat_room_arn: string } }>> => {
  const { routesByKey } = await import('../../../functions/routes.ts');
  const { functionContext, installLocalAws, runAsFunction } = await import('../aws.ts');
  installLocalAws(); // a function's environment and policy while it runs (idempotent)
  const { createRoom } = await import('../../../shared/chat/rooms.ts');
  const createChannelRow = routesByKey.get('POST /studio/channel');
  if (!createChannelRow) throw new Error('No POST /studio/channel route to make the demo chat rooms as');
  const context = functionContext(createChannelRow);
  return Promise.all(
    channels.map(async (demo) => ({
      ...demo,
      channel: {
        ...demo.channel,
        chat_room_arn: await runAsFunction(context, () => createRoom(demo.creator.id)),
      },
    })),
  );
};

/**
 * A creator of the catalogue as loaded with its demo channel: offline as the reducer leaves a
 * channel (no stream, no viewers: `watching_now` then comes from the live counters, as for any
 * channel), its channel provisioned, and the seed's stream title as the creator's own title for
 * their streams (`live_title`, which the reducer titles a stream with: IVS's events carry none).
 */
export const offlineWithChannel = ({
  creator,
  channel,
}: DemoChannel): CreatorRecord & { live_title: string } => ({
  ...creator,
  live: null,
  watching_now: 0,
  ivs: channel,
  live_title: creator.live.title,
});

/**
 * The broadcaster's clock: the wall clock, except inside `wentLiveAt`, where it reads the instant
 * given. Pass it as the broadcaster's `now`.
 */
const replayed = new AsyncLocalStorage<number>();
export const broadcastClock = (): number => replayed.getStore() ?? Date.now();

/**
 * Starts a broadcast on every demo channel, concurrently, as of the instant the seed says it went
 * live (`live.started_at`, minutes to hours ago): the Stream Start documents carry that `time`,
 * as IVS's would have, so the reducer's `started_at` is the seed's (IVS events are often
 * delivered late; the reducer orders by `time`). Resolves once every document has been handled
 * by the sink, i.e. every creator item is live; the projector may still be at work.
 * The broadcaster must use `broadcastClock`. No encoder process runs per channel: the stand-in
 * serves every live channel from the one shared test pattern (docs/local-ivs.md "The video").
 */
export const startDemoBroadcasts = async (
  broadcaster: Broadcaster,
  channels: readonly DemoChannel[],
): Promise<void> => {
  // The IVS event function logs a line per document (three per channel here): its INFO lines
  // about these replayed starts are left out of the start-up output; anything else is printed.
  // The logger writes to process.stdout itself (shared/observability), so the filter sits there.
  const stdout = process.stdout;
  const write = stdout.write;
  stdout.write = ((chunk: unknown, ...rest: unknown[]) => {
    const routine = typeof chunk === 'string' && chunk.startsWith('{"level":"INFO"');
    if (routine && replayed.getStore() !== undefined) return true;
    return (write as (...args: unknown[]) => boolean).call(stdout, chunk, ...rest);
  }) as typeof stdout.write;
  try {
    await Promise.all(
      channels.map(({ creator, channel }) =>
        replayed.run(Date.parse(creator.live.started_at), () => broadcaster.start(channel.channel_arn)),
      ),
    );
  } finally {
    stdout.write = write;
  }
};
