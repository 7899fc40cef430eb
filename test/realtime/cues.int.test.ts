import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApi, testApi } from '../support/api.ts';
import { broadcast, type StudioCreator, studioCreator } from '../support/studio.ts';
import { waitFor } from '../support/wait.ts';

/**
 * Cues in the stream (docs/realtime.md "Cues"): POST /studio/channel/cues through IVS PutMetadata
 * on the IVS stand-in, whose live media playlist carries them as EXT-X-DATERANGE; the scheduler
 * keeps a channel to 5 a second.
 */
let api: TestApi;
let me: StudioCreator;

const cue = (body: unknown, token = me.token) => api.post('/studio/channel/cues', { token, body });
const isLive = async () =>
  (await api.get(`/creators/${me.creatorId}/channel/live`)).body.data.is_live === true;

beforeAll(async () => {
  api = await testApi();
  me = await studioCreator(api, 'music');
});
afterAll(async () => {
  if (await isLive()) await broadcast('stop', me.creatorId);
});

describe('POST /studio/channel/cues', () => {
  it('refuses before a channel (404) and while offline (409), and validates the cue (422)', async () => {
    expect((await cue({ type: 'poll.open', payload: {} })).status).toBe(404);
    expect((await api.post('/studio/channel', { token: me.token })).status).toBe(201);
    const offline = await cue({ type: 'poll.open', payload: { q: 'Encore?' } });
    expect(offline.status).toBe(409);
    expect(offline.body.message).toBe('The channel is not broadcasting: cues go into a live stream');
    expect((await cue({ type: 'Poll Open' })).status).toBe(422);
    expect((await cue({ payload: {} })).status).toBe(422);
    expect((await cue({ type: 'poll.open', payload: { text: 'x'.repeat(1024) } })).status).toBe(422);
    expect((await api.post('/studio/channel/cues', { body: { type: 'poll.open' } })).status).toBe(401);
  });

  it('refuses control and bidi override characters in any string of the payload (422 naming it)', async () => {
    // Display text by the chat attributes' rules (docs/realtime.md "Cues"): keys and values, at any depth.
    const refused = async (payload: unknown, field: string) => {
      const res = await cue({ type: 'poll.open', payload });
      expect(res.status, JSON.stringify(payload)).toBe(422);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
      expect(res.body.errors[0].message).toContain('bidirectional override');
    };
    await refused({ question: 'spam\u202Eexe.gnp' }, 'payload.question');
    await refused({ poll: { options: ['Yes', 'No\u0007'] } }, 'payload.poll.options.1');
    await refused({ 'label\u2066': 'x' }, 'payload.label\u2066');
    await refused({ q: 'a\u0085b' }, 'payload.q');
    // Line breaks and tabs, right-to-left text and its marks, numbers and nulls pass validation
    // (then 409: the channel is offline).
    const passes = await cue({
      type: 'poll.open',
      payload: { question: 'Encore?\n\tYes or no', rtl: 'שלום\u200F', n: 3, none: null, ok: [true] },
    });
    expect(passes.status).toBe(409);
  });

  it('puts a cue into the live stream as timed metadata, five a second at most', async () => {
    await broadcast('start', me.creatorId);
    await waitFor(isLive, 'the channel live');
    const sent = await cue({ type: 'poll.open', payload: { poll_id: 'p1', question: 'Encore?' } });
    expect(sent.status).toBe(202);
    expect(sent.body.data).toEqual({
      type: 'poll.open',
      scheduled_at: expect.any(String),
      sent_at: expect.any(String),
      bytes: expect.any(Number),
    });
    // The IVS stand-in's live media playlist carries it where the picture is (a watch session's URL).
    const channelId = (await api.get(`/creators/${me.creatorId}/channel/live`)).body.data.channel.channel_id;
    const watch = await api.post(`/creators/${me.creatorId}/channel/live/watch`, {
      token: me.token,
      body: { channel_id: channelId, device_type: 'web' },
    });
    expect(watch.status).toBe(200);
    const master = new URL(watch.body.data.stream.stream_url);
    const mediaUri = (await (await fetch(master)).text())
      .split('\n')
      .find((line) => line && !line.startsWith('#'))!;
    const playlist = await (await fetch(new URL(mediaUri, master))).text();
    const daterange = playlist.split('\n').find((line) => line.startsWith('#EXT-X-DATERANGE'));
    expect(daterange, playlist).toContain('CLASS="com.amazon.ivs.metadata"');
    const encoded = /X-METADATA="([^"]+)"/.exec(daterange ?? '')?.[1] ?? '';
    expect(JSON.parse(Buffer.from(encoded, 'base64').toString('utf8'))).toEqual({
      type: 'poll.open',
      payload: { poll_id: 'p1', question: 'Encore?' },
    });
    // Twelve at once: the scheduler books them into seconds, at most five in any one.
    const burst = await Promise.all(
      Array.from({ length: 12 }, (_, i) => cue({ type: 'tick', payload: { i } })),
    );
    const seconds = burst
      .filter((r) => r.status === 202)
      .map((r) => Date.parse(r.body.data.scheduled_at) / 1000);
    const perSecond = new Map<number, number>();
    for (const second of seconds) perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
    expect(Math.max(...perSecond.values())).toBeLessThanOrEqual(5);
    expect(burst.every((r) => r.status === 202 || r.status === 429)).toBe(true);
    expect(seconds.length).toBeGreaterThanOrEqual(10);
  });
});
