import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { issueAccessToken } from '../../shared/identity/access-token.ts';
import { generateCatalog } from '../../scripts/seed/generate.ts';
import { type TestApi, testApi } from '../support/api.ts';

let api: TestApi;
let alice: string;
let bob: string;
beforeAll(async () => {
  api = await testApi();
  alice = (await issueAccessToken(`acc_alice_${randomUUID()}`, new Date())).token;
  bob = (await issueAccessToken(`acc_bob_${randomUUID()}`, new Date())).token;
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A target of its own per test: a post (posts are not stored here, so any id is one). */
const target = () => ({ targetType: 'POST', targetId: `post_test_${randomUUID().slice(0, 8)}` });
const summary = async (t: { targetType: string; targetId: string }, token: string) =>
  api.get(`/v3/reactions/summary/${t.targetType}/${t.targetId}`, { token });

describe('reactions', () => {
  it('adds a reaction (201), is idempotent (200), and counts it once', async () => {
    const t = target();
    const first = await api.post('/v3/reactions', { body: { ...t, emoji: '🔥' }, token: alice });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ success: true, data: { ...t, emoji: '🔥', reacted: true } });
    const again = await api.post('/v3/reactions', { body: { ...t, emoji: '🔥' }, token: alice });
    expect(again.status).toBe(200);
    const res = await summary(t, alice);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data.summary).toEqual([{ emoji: '🔥', count: 1 }]);
    expect(res.body.data.userReactions).toEqual(['🔥']);
  });

  it("orders the summary by count and shows only the caller's own emojis", async () => {
    const t = target();
    await api.post('/v3/reactions', { body: { ...t, emoji: '😂' }, token: alice });
    await api.post('/v3/reactions', { body: { ...t, emoji: '😂' }, token: bob });
    await api.post('/v3/reactions', { body: { ...t, emoji: '👍🏽' }, token: bob });
    const res = await summary(t, alice);
    expect(res.body.data.summary).toEqual([
      { emoji: '😂', count: 2 },
      { emoji: '👍🏽', count: 1 },
    ]);
    expect(res.body.data.total).toBe(3);
    expect(res.body.data.userReactions).toEqual(['😂']);
  });

  it('counts 50 parallel identical reactions once', async () => {
    const t = target();
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        api.post('/v3/reactions', { body: { ...t, emoji: '❤️' }, token: alice }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 200)).toHaveLength(49);
    expect((await summary(t, alice)).body.data.summary).toEqual([{ emoji: '❤️', count: 1 }]);
  });

  it("removes only the caller's own reaction: 204 with no body", async () => {
    const t = target();
    await api.post('/v3/reactions', { body: { ...t, emoji: '🎉' }, token: alice });
    const byBob = await api.delete('/v3/reactions', { body: { ...t, emoji: '🎉' }, token: bob });
    expect(byBob.status).toBe(204);
    expect((await summary(t, alice)).body.data.summary).toEqual([{ emoji: '🎉', count: 1 }]);
    const byAlice = await api.delete('/v3/reactions', { body: { ...t, emoji: '🎉' }, token: alice });
    expect(byAlice.status).toBe(204);
    expect(byAlice.body).toBeUndefined();
    expect((await summary(t, alice)).body.data.summary).toEqual([]);
    expect((await api.delete('/v3/reactions', { body: { ...t, emoji: '🎉' }, token: alice })).status).toBe(
      204,
    );
  });

  it('answers 404 for a video or series that does not exist, as reports do; accepts one that does', async () => {
    const catalog = generateCatalog({ now: api.seededAt, seed: 42 });
    const episode = catalog.episodes[0]!.id;
    const show = catalog.shows[0]!.id;
    for (const [targetType, targetId, message] of [
      ['VIDEO', 'ep_nothing_here', 'Video not found'],
      ['SERIES', 'sh_nothing_here', 'Series not found'],
    ] as const) {
      const res = await api.post('/v3/reactions', {
        body: { targetType, targetId, emoji: '🔥' },
        token: alice,
      });
      expect(res.status, targetType).toBe(404);
      expect(res.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND', message } });
    }
    for (const [targetType, targetId] of [
      ['VIDEO', episode],
      ['SERIES', show],
    ] as const) {
      const res = await api.post('/v3/reactions', {
        body: { targetType, targetId, emoji: '🎬' },
        token: bob,
      });
      expect([200, 201], `${targetType} ${targetId}`).toContain(res.status);
    }
  });

  it('one account puts at most 20 different emoji on one item: a 21st is a 409, an emoji it has stays idempotent (was unbounded: any ZWJ sequence is an emoji)', async () => {
    const t = target();
    const carol = (await issueAccessToken(`acc_carol_${randomUUID()}`, new Date())).token;
    const emoji = (i: number) => `🔥\u200D${String.fromCodePoint(0x1f600 + i)}`;
    for (let i = 0; i < 20; i++)
      expect(
        (await api.post('/v3/reactions', { body: { ...t, emoji: emoji(i) }, token: carol })).status,
      ).toBe(201);
    const over = await api.post('/v3/reactions', { body: { ...t, emoji: emoji(20) }, token: carol });
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({
      success: false,
      error: { message: expect.stringMatching(/At most 20/) },
    });
    expect((await api.post('/v3/reactions', { body: { ...t, emoji: emoji(3) }, token: carol })).status).toBe(
      200,
    );
    // Another account and another item are their own.
    expect((await api.post('/v3/reactions', { body: { ...t, emoji: emoji(20) }, token: bob })).status).toBe(
      201,
    );
    // Removing one makes room.
    expect(
      (await api.delete('/v3/reactions', { body: { ...t, emoji: emoji(0) }, token: carol })).status,
    ).toBe(204);
    expect((await api.post('/v3/reactions', { body: { ...t, emoji: emoji(20) }, token: carol })).status).toBe(
      201,
    );
    const counts = (await summary(t, carol)).body.data.summary;
    expect(counts).toHaveLength(20);
    expect(counts[0]).toEqual({ emoji: emoji(20), count: 2 });
  });

  it('validates the body with the reactions error envelope', async () => {
    const cases = [
      { targetType: 'MOVIE', targetId: 'x', emoji: '🔥' },
      { targetType: 'VIDEO', targetId: 'x', emoji: 'fire' },
      { targetType: 'VIDEO', targetId: 'x', emoji: '🔥🔥' },
      { targetType: 'VIDEO', targetId: '', emoji: '🔥' },
    ];
    for (const body of cases) {
      const res = await api.post('/v3/reactions', { body, token: alice });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.success).toBe(false);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.requestId).toMatch(UUID);
    }
  });

  it('requires a valid bearer token on every reactions route', async () => {
    const t = target();
    const calls = [
      () => api.post('/v3/reactions', { body: { ...t, emoji: '🔥' } }),
      () => api.delete('/v3/reactions', { body: { ...t, emoji: '🔥' } }),
      () => api.get(`/v3/reactions/summary/${t.targetType}/${t.targetId}`),
      () => api.get(`/v3/reactions/summary/${t.targetType}/${t.targetId}`, { token: `${alice}x` }),
    ];
    for (const call of calls) {
      const res = await call();
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        success: false,
        error: { code: 'UNAUTHORIZED', message: expect.any(String) },
        requestId: expect.stringMatching(UUID),
      });
    }
  });
});
