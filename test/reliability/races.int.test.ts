import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueAccessToken } from '../../shared/identity/access-token.ts';
import { type TestApi, testApi } from '../support/api.ts';
import { lastOpenLiveChannel } from '../support/catalog.ts';

const ROUNDS = 5;
/**
 * Sign-ups fired per sign-up round. Each hashes its password (scrypt, on libuv's 4-thread pool)
 * before its one conditional transaction, so their writes reach DynamoDB at most 4 at a time:
 * 8 (two waves) races as 20 did, for 40 hashes instead of 100 (26 s of this file's 29 s on the
 * 2-core CI machine). SIGNUP_RACERS=20 runs the old width.
 */
const SIGNUP_RACERS = Number(process.env.SIGNUP_RACERS ?? 8);
/** Parallel requests fired per race, counted for the figures line printed at the end. */
const fired: Record<string, number> = {};
let api: TestApi;
let live: { id: string; channel: string };
beforeAll(async () => {
  api = await testApi();
  live = lastOpenLiveChannel(api.seededAt);
});
afterAll(() => {
  const total = Object.values(fired).reduce((a, b) => a + b, 0);
  console.info(`races: ${Object.keys(fired).length} races x ${ROUNDS} rounds, ${total} parallel requests`);
});
const viewer = async () => (await issueAccessToken(`acc_race_${randomUUID()}`, new Date())).token;

describe(`races, ${ROUNDS} rounds each`, () => {
  it('sign-ups on one handle and one email: exactly one wins', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      // Even rounds race on one handle, odd rounds on one email (in another letter case each).
      const shared = randomUUID().slice(0, 8);
      fired.signUp = (fired.signUp ?? 0) + SIGNUP_RACERS;
      const results = await Promise.all(
        Array.from({ length: SIGNUP_RACERS }, (_, i) =>
          api.post('/onboarding/account/create', {
            headers: { 'x-forwarded-for': `10.6.${round}.${i}` },
            body: {
              email:
                round % 2
                  ? `${i % 2 ? 'R' : 'r'}.${shared}@Example.com`
                  : `r${round}.${i}.${randomUUID().slice(0, 6)}@example.com`,
              password: 'correct-horse-1',
              creator_name: 'R',
              handle: round % 2 ? `rh_${randomUUID().slice(0, 8)}` : `${i % 2 ? 'RH' : 'rh'}_${shared}`,
              agreed_to_terms: true,
            },
          }),
        ),
      );
      expect(results.filter((r) => r.status === 201)).toHaveLength(1);
      expect(results.filter((r) => r.status === 409)).toHaveLength(SIGNUP_RACERS - 1);
    }
  }, 120_000); // ROUNDS x SIGNUP_RACERS scrypt hashes: CPU-bound

  it('identical reactions: counted once', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const token = await viewer();
      const t = { targetType: 'POST', targetId: `post_${randomUUID().slice(0, 8)}`, emoji: '👏' };
      fired.reactions = (fired.reactions ?? 0) + 20;
      await Promise.all(Array.from({ length: 20 }, () => api.post('/v3/reactions', { token, body: t })));
      expect(
        (await api.get(`/v3/reactions/summary/POST/${t.targetId}`, { token })).body.data.summary,
      ).toEqual([{ emoji: '👏', count: 1 }]);
    }
  });

  it('watch opens at the limit: exactly 3', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const token = await viewer();
      fired.watchOpens = (fired.watchOpens ?? 0) + 10;
      const results = await Promise.all(
        Array.from({ length: 10 }, () =>
          api.post(`/creators/${live.id}/channel/live/watch`, {
            token,
            body: { channel_id: live.channel, device_type: 'web' },
          }),
        ),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    }
  });

  it('heartbeat racing DELETE never revives an ended session', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const token = await viewer();
      const sid = (
        await api.post(`/creators/${live.id}/channel/live/watch`, {
          token,
          body: { channel_id: live.channel, device_type: 'ios' },
        })
      ).body.data.session.session_id;
      const base = `/creators/${live.id}/channel/live`;
      fired.heartbeatVsDelete = (fired.heartbeatVsDelete ?? 0) + 6;
      await Promise.all([
        ...Array.from({ length: 5 }, () => api.get(`${base}/heartbeat?session_id=${sid}`, { token })),
        api.delete(`${base}/watch?session_id=${sid}`, { token }),
      ]);
      const after = await api.get(`${base}/heartbeat?session_id=${sid}`, { token });
      expect(after.body.data.session_valid).toBe(false);
    }
  });

  it('parallel follow and unfollow: no error, and the final state matches a last write', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const token = await viewer();
      fired.followUnfollow = (fired.followUnfollow ?? 0) + 10;
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          i % 2
            ? api.delete(`/creators/${live.id}/follow`, { token })
            : api.post(`/creators/${live.id}/follow`, { token }),
        ),
      );
      expect(results.every((r) => r.status === 200)).toBe(true);
      const state = (await api.get(`/creators/${live.id}`, { token })).body.data[0].user_state.is_following;
      expect(typeof state).toBe('boolean');
      const settle = await api.post(`/creators/${live.id}/follow`, { token });
      expect(settle.body.data.is_following).toBe(true);
      expect((await api.get(`/creators/${live.id}`, { token })).body.data[0].user_state.is_following).toBe(
        true,
      );
    }
  });
});
