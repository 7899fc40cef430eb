import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { issueAccessToken } from '../../shared/identity/access-token.ts';
import { BUCKET_SECONDS, countPresence } from '../../shared/audience/viewer-counter.ts';
import { TickAggregator } from '../../shared/realtime/aggregator.ts';
import {
  type AudienceData,
  creatorChannel,
  type HomeData,
  type LiveMessage,
  type ReactionsData,
  type StateData,
  tickOf,
  tickStartMs,
} from '../../shared/realtime/messages.ts';
import { countLiveReaction } from '../../shared/realtime/reaction-counter.ts';
import { publishTick, type TickMemory } from '../../shared/realtime/tick.ts';
import { generateCatalog } from '../../scripts/seed/generate.ts';
import { type TestApi, testApi } from '../support/api.ts';
import { connectEvents, type EventsClient, eventOf } from '../support/appsync-events.ts';
import { subscribePaid } from '../support/payments.ts';
import { broadcast, studioCreator } from '../support/studio.ts';

/**
 * Live state pushed through the Event API (docs/realtime.md), end to end on the test platform:
 * the AppSync Events stand-in, the realtime authoriser run as its function, the aggregator's
 * ticks every 5 s run as the tick function (scripts/local/platform.ts).
 */
let api: TestApi;
let open: { id: string; channel: string; slug: string }; // live, no subscription needed; no other file uses it
let offline: { id: string };
const gated = { id: 'cr_0001', channel: 'ch_0001' };
const TWO_TICKS_MS = 2 * 5_000 + 3_000; // two ticks, and the load of a shared test machine

beforeAll(async () => {
  api = await testApi();
  const catalog = generateCatalog({ now: api.seededAt, seed: 42 });
  const o = catalog.creators.filter((c) => c.live && !c.channel.requires_subscription).at(-1)!;
  open = { id: o.id, channel: o.channel.channel_id, slug: o.slug };
  offline = { id: catalog.creators.find((c) => !c.live)!.id };
});

const clients: EventsClient[] = [];
afterEach(() => {
  for (const client of clients.splice(0)) client.close();
});

const viewer = async () => (await issueAccessToken(`acc_${randomUUID()}`, new Date())).token;
const realtime = (id: string, token?: string) => api.get(`/creators/${id}/channel/live/realtime`, { token });
const connect = async (endpoint: string, token: string) => {
  const client = await connectEvents(endpoint, token);
  clients.push(client);
  return client;
};
/** The next message of `kind` satisfying `match`, within `ms`. */
const nextMessage = async <D>(
  client: EventsClient,
  kind: string,
  match: (data: D) => boolean,
  ms = TWO_TICKS_MS,
): Promise<LiveMessage<D>> => {
  const frame = await client.next((f) => {
    if (f.type !== 'data') return false;
    const message = eventOf<LiveMessage<D>>(f);
    return message.kind === kind && match(message.data);
  }, ms);
  return eventOf<LiveMessage<D>>(frame);
};

/** A hang guard for the whole path (IVS event, reducer, table stream, projector, tick), not a measure. */
const PATH_MS = 45_000;

describe('GET /creators/{id}/channel/live/realtime', () => {
  it('gives anyone an open channel: endpoint, channel and a token the Event API admits for it only', async () => {
    const res = await realtime(open.id);
    expect(res.status).toBe(200);
    const access = res.body.data;
    expect(access).toMatchObject({
      endpoint: expect.stringMatching(/^ws:\/\/127\.0\.0\.1:\d+\/event\/realtime$/),
      channel: `/live/${open.id.replace('_', '-')}`,
      home_channel: '/live/home',
      tick_seconds: 5,
      message_version: 1,
      auth: { type: 'AWS_LAMBDA', token: expect.any(String), expires_at: expect.any(String) },
    });
    const client = await connect(access.endpoint, access.auth.token);
    expect(await client.subscribe('mine', access.channel, access.auth.token)).toEqual({
      type: 'subscribe_success',
      id: 'mine',
    });
    expect((await client.subscribe('home', '/live/home', access.auth.token)).type).toBe('subscribe_success');
    // The refusal: this token does not open another channel, a gated one least of all.
    const refused = await client.subscribe('other', '/live/cr-0001', access.auth.token);
    expect(refused).toMatchObject({
      type: 'subscribe_error',
      errors: [{ errorType: 'UnauthorizedException' }],
    });
    // Nor does an access token, or nothing.
    expect((await client.subscribe('api', access.channel, await viewer())).type).toBe('subscribe_error');
    expect((await client.subscribe('none', access.channel, undefined)).type).toBe('subscribe_error');
    // A connection without a realtime token is refused outright.
    const stranger = await connectEvents(access.endpoint, await viewer());
    clients.push(stranger);
    expect((await stranger.next((f) => f.type === 'connection_error')).errors).toEqual([
      expect.objectContaining({ errorType: 'UnauthorizedException' }),
    ]);
  });

  it('admits only entitled viewers to a channel that requires a subscription (401, 403, then 200)', async () => {
    expect((await realtime(gated.id)).status).toBe(401);
    const token = await viewer();
    const refused = await realtime(gated.id, token);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      status: 'error',
      message: 'This channel requires an active subscription',
    });
    await subscribePaid(api, token, gated.id);
    const admitted = await realtime(gated.id, token);
    expect(admitted.status).toBe(200);
    const { endpoint, channel, auth } = admitted.body.data;
    expect(channel).toBe('/live/cr-0001');
    const client = await connect(endpoint, auth.token);
    expect((await client.subscribe('gated', channel, auth.token)).type).toBe('subscribe_success');
  });

  it("admits a creator to their own channel that requires a subscription (an account's creator id is its account id)", async () => {
    const own = await issueAccessToken(gated.id, new Date());
    const admitted = await realtime(gated.id, own.token);
    expect(admitted.status).toBe(200);
    expect(admitted.body.data.channel).toBe('/live/cr-0001');
  });

  it('answers 404 for an unknown creator and 400 for a malformed id', async () => {
    expect((await realtime('cr_9999999')).status).toBe(404);
    expect((await realtime('bad id!')).status).toBe(400);
    // The handle names the creator too (the channel is still the id's).
    const byHandle = await realtime(open.slug);
    expect(byHandle.status).toBe(200);
    expect(byHandle.body.data.channel).toBe(`/live/${open.id.replace('_', '-')}`);
  });
});

describe('live state on the channel', () => {
  it('pushes reactions as per-emoji totals of a tick, and two new viewers within two ticks', async () => {
    const access = (await realtime(open.id)).body.data;
    const client = await connect(access.endpoint, access.auth.token);
    expect((await client.subscribe('s', access.channel, access.auth.token)).type).toBe('subscribe_success');
    const [alice, bob] = [await viewer(), await viewer()];
    const react = (token: string, emoji: string) =>
      api.post(`/creators/${open.id}/channel/live/reactions`, { token, body: { emoji } });
    const sent = await Promise.all([
      react(alice, '🦄'),
      react(alice, '🦄'),
      react(bob, '🦄'),
      react(bob, '🐙'),
    ]);
    expect(sent.map((r) => r.status)).toEqual([202, 202, 202, 202]);
    expect(sent[0]?.body.data).toEqual({
      creator_id: open.id,
      emoji: '🦄',
      tick: expect.any(Number),
      tick_seconds: 5,
    });
    // The four may fall in two ticks: sum what arrives until all are counted.
    const seen = new Map<string, number>();
    const deadline = Date.now() + TWO_TICKS_MS + 5_000;
    while ((seen.get('🦄') ?? 0) < 3 || (seen.get('🐙') ?? 0) < 1) {
      const message = await nextMessage<ReactionsData>(
        client,
        'reactions',
        (d) => d.total > 0,
        deadline - Date.now(),
      );
      expect(message).toMatchObject({
        v: 1,
        kind: 'reactions',
        creator_id: open.id,
        tick: expect.any(Number),
      });
      for (const { emoji, count } of message.data.totals) seen.set(emoji, (seen.get(emoji) ?? 0) + count);
    }
    expect(Object.fromEntries(seen)).toMatchObject({ '🦄': 3, '🐙': 1 });

    // The audience, on a channel nobody else watches: a channel's count is the larger of this
    // bucket's and the last one's, so on the shared demo channel other files' viewers of the last
    // bucket can hold it above "before + 2" (a clean-clone run saw 4, web 1, roku 3).
    const creator = await studioCreator(api, 'music');
    expect((await api.post('/studio/channel', { token: creator.token })).status).toBe(201);
    const own = (await realtime(creator.creatorId)).body.data;
    const watcher = await connect(own.endpoint, own.auth.token);
    expect((await watcher.subscribe('own', own.channel, own.auth.token)).type).toBe('subscribe_success');
    await broadcast('start', creator.creatorId);
    await nextMessage<StateData>(watcher, 'state', (d) => d.is_live, PATH_MS);
    const [channel] = (await api.get(`/tv/v3/creators/${creator.creatorId}`)).body.data.channels;
    for (const token of [alice, bob]) {
      const opened = await api.post(`/creators/${creator.creatorId}/channel/live/watch`, {
        token,
        body: { channel_id: channel.channel_id, device_type: 'web' },
      });
      expect(opened.status).toBe(200);
    }
    const audience = await nextMessage<AudienceData>(watcher, 'audience', (d) => d.watching_now === 2);
    expect(audience.data.by_device.web).toBe(2);
    await broadcast('stop', creator.creatorId);
  });

  it('refuses a reaction on an offline channel (409), an unknown creator (404), a bad emoji (422) and anonymous (401)', async () => {
    const token = await viewer();
    const react = (id: string, body: unknown) =>
      api.post(`/creators/${id}/channel/live/reactions`, { token, body });
    expect((await react(offline.id, { emoji: '🔥' })).status).toBe(409);
    expect((await react('cr_9999999', { emoji: '🔥' })).status).toBe(404);
    expect((await react(open.id, { emoji: 'hello' })).status).toBe(422);
    expect((await react(open.id, {})).status).toBe(422);
    const byHandle = await react(open.slug, { emoji: '🎉' });
    expect(byHandle.status).toBe(202);
    expect(byHandle.body.data.creator_id).toBe(open.id);
    const anonymous = await api.post(`/creators/${open.id}/channel/live/reactions`, {
      body: { emoji: '🔥' },
    });
    expect(anonymous.status).toBe(401);
    // A gated channel: only with the subscription.
    expect((await react(gated.id, { emoji: '🔥' })).status).toBe(403);
  });
});

describe("/live/home: the live list's changes", () => {
  it('carries a channel going live and going offline through IVS, each as a full versioned snapshot', async () => {
    const creator = await studioCreator(api, 'music');
    expect((await api.post('/studio/channel', { token: creator.token })).status).toBe(201);
    const access = (await realtime(creator.creatorId)).body.data;
    const client = await connect(access.endpoint, access.auth.token);
    for (const [id, channel] of [
      ['home', access.home_channel],
      ['mine', access.channel],
    ])
      expect((await client.subscribe(id, channel, access.auth.token)).type).toBe('subscribe_success');
    const homeMessage = (match: (d: HomeData) => boolean) =>
      client.next((f) => {
        if (f.type !== 'data' || f.id !== 'home') return false;
        return match(eventOf<LiveMessage<HomeData>>(f).data);
      }, PATH_MS);
    const expectSnapshot = (message: LiveMessage<HomeData>) => {
      expect(message).toEqual({
        v: 1,
        kind: 'home',
        tick: expect.any(Number),
        at: expect.any(String),
        data: { live: expect.any(Array), went_live: expect.any(Array), went_offline: expect.any(Array) },
      });
      const { live } = message.data;
      expect(live.length).toBeGreaterThan(0);
      expect(live.length).toBeLessThanOrEqual(50);
      expect(live.map((e) => e.watching_now)).toEqual(live.map((e) => e.watching_now).sort((a, b) => b - a));
    };

    await broadcast('start', creator.creatorId);
    const wentLive = eventOf<LiveMessage<HomeData>>(
      await homeMessage((d) => d.went_live.includes(creator.creatorId)),
    );
    expectSnapshot(wentLive);
    expect(wentLive.data.went_offline).not.toContain(creator.creatorId);
    // Its own channel says so too: `state`, live and healthy.
    const live = await nextMessage<StateData>(client, 'state', (d) => d.is_live, PATH_MS);
    expect(live).toMatchObject({
      creator_id: creator.creatorId,
      data: { is_live: true, stream_health: 'good' },
    });

    await broadcast('stop', creator.creatorId);
    const wentOffline = eventOf<LiveMessage<HomeData>>(
      await homeMessage((d) => d.went_offline.includes(creator.creatorId)),
    );
    expectSnapshot(wentOffline);
    expect(wentOffline.tick).toBeGreaterThan(wentLive.tick);
    expect(wentOffline.data.live.map((e) => e.creator_id)).not.toContain(creator.creatorId);
    const offline = await nextMessage<StateData>(client, 'state', (d) => !d.is_live, PATH_MS);
    expect(offline.data).toEqual({ is_live: false, stream_health: 'offline', title: null, started_at: null });
  });
});

describe('the tick under a loaded machine (publishTick at instants two days ahead, its own memory)', () => {
  it('loses no reaction to a skipped tick or a late write, and reads the audience afresh each tick', async () => {
    // Two days ahead, 30 s into a viewer-count bucket: the platform's own ticks never read these
    // counters, and the four ticks below fall in one bucket.
    const bucketMs = BUCKET_SECONDS * 1000;
    const base = tickOf(new Date(Math.floor((Date.now() + 2 * 86_400_000) / bucketMs) * bucketMs + 30_000));
    const at = (tick: number, ms: number) => new Date(tickStartMs(tick) + ms);
    const memory: TickMemory = { aggregator: new TickAggregator(), live: new Set() };
    const tick = async (now: Date) => {
      const sent: LiveMessage[] = [];
      await publishTick(now, {
        memory,
        publish: async (channel, events) => {
          if (channel === creatorChannel(open.id) || channel === '/live/home')
            sent.push(...(events as LiveMessage[]));
        },
      });
      return (kind: string) => sent.find((m) => m.kind === kind);
    };
    const totals = (message: LiveMessage | undefined) =>
      Object.fromEntries(
        (message?.data as ReactionsData | undefined)?.totals.map((e) => [e.emoji, e.count]) ?? [],
      );

    // A tick 0.8 s late reads the audience; two viewers arrive; the next tick, 0.3 s after its
    // boundary (4.5 s later, inside the request paths' 5 s cache), must see them.
    expect((await tick(at(base, 800)))('audience')?.data).toMatchObject({ watching_now: 0 });
    await Promise.all([0, 1].map(() => countPresence(open.channel, 'web', at(base, 900))));
    // The tick before did not see `open` live (memory says so): this one's home names it in
    // went_live, though the first 50 of the live list are as they were.
    memory.live.delete(open.id);
    const second = await tick(at(base + 1, 300));
    expect(second('audience')?.data).toMatchObject({ watching_now: 2 });
    expect(second('home')?.data).toMatchObject({ went_live: [open.id], went_offline: [] });

    // Reactions in tick base+2; the tick of base+3 never runs (the one before ran long): the tick
    // of base+4 publishes them.
    await countLiveReaction(open.id, '🦄', base + 2);
    await countLiveReaction(open.id, '🦄', base + 2);
    expect(totals((await tick(at(base + 4, 300)))('reactions'))).toEqual({ '🦄': 2 });

    // A reaction of tick base+3 written after that tick was read (a slow request): the next tick
    // publishes it, and only it.
    await countLiveReaction(open.id, '🐙', base + 3);
    expect(totals((await tick(at(base + 5, 300)))('reactions'))).toEqual({ '🐙': 1 });
    // The same tick run again (an overlapping run) publishes nothing twice.
    expect(totals((await tick(at(base + 5, 900)))('reactions'))).toEqual({});
  });
});
