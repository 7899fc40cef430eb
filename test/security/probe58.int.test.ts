import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startLocalAccountJobs } from '../../scripts/local/accounts.ts';
import { CHAT_PASSES_PER_HOUR } from '../../shared/accounts/end-chat.ts';
import { fromNewAddress, type TestApi, testApi } from '../support/api.ts';
import { disconnectsOf } from '../support/chat-socket.ts';
import { inParallel } from '../support/parallel.ts';
import { onboardCreator } from '../support/payments.ts';
import { signUp, studioCreator } from '../support/studio.ts';

/**
 * The outside probe of 2026-12-01 (stop 58): what it found in the routes added in the last stops,
 * each shown failing on the code before its fix.
 */
let api: TestApi;
beforeAll(async () => {
  api = await testApi();
});

/** The statuses of `count` calls of `call`, five at a time, in the order made. */
const statuses = (count: number, call: (i: number) => Promise<{ status: number }>) =>
  inParallel(
    Array.from({ length: count }, (_, i) => i),
    5,
    async (i) => (await call(i)).status,
  );

describe('request budgets on routes that make work elsewhere', () => {
  it('a sign-out is never refused, and the chat passes sign-outs queue have a per-account budget: each queued two account jobs calling IVS Chat DisconnectUser in every room a signed-out session holds a token for (was unbounded)', async () => {
    const jobs = await startLocalAccountJobs();
    onTestFinished(() => jobs.stop());
    const { res, email } = await signUp(api, 'budget');
    expect(res.status).toBe(201);
    const accountId: string = res.body.data.creator_id;
    const token: string = res.body.data.auth_token;
    const other = await api.post(
      '/auth/login',
      fromNewAddress({ body: { email, password: 'correct-horse-1' } }),
    );
    expect(other.status).toBe(200);
    // The other session holds a chat token in one room (the first live channel that gives one).
    const live = await api.get('/creators/live');
    let room: string | undefined;
    for (const { id } of live.body.data.creators as { id: string }[]) {
      const chat = await api.post(
        `/creators/${id}/channel/chat/token`,
        fromNewAddress({ token: other.body.data.auth_token }),
      );
      if (chat.status === 200) {
        room = id;
        break;
      }
    }
    expect(room).toBeDefined();
    const sessions = await api.get('/me/sessions', { token });
    const otherId: string = sessions.body.data.sessions.find((s: { current: boolean }) => !s.current).id;

    const disconnects = disconnectsOf(accountId);

    // Whoever holds another session of the account (here the owner's own) spends no budget that
    // could keep the owner from signing them out: every request is answered.
    const everywhere = await statuses(15, () => api.delete('/me/sessions', { token }));
    const one = await statuses(15, () => api.delete(`/me/sessions/${otherId}`, { token }));
    expect([...new Set(everywhere)], 'DELETE /me/sessions').toEqual([200]);
    expect([...new Set(one)], 'DELETE /me/sessions/{id}').toEqual([204]);
    await jobs.drain({ elapse: true });
    expect(jobs.deadLetters()).toEqual([]);
    // Each of the 20 budgeted sign-outs queued two passes (at once and the recheck), one room each.
    expect(disconnects.length).toBe(2 * CHAT_PASSES_PER_HOUR);
  });

  it('PUT /studio/plan has the payment routes’ budget: each request creates a Stripe Price and Product (was unbounded)', async () => {
    const creator = await studioCreator(api);
    await onboardCreator(api, creator.token, creator.creatorId);
    const plans = await statuses(31, (i) =>
      api.put('/studio/plan', {
        token: creator.token,
        body: { price: 1 + i, currency: 'USD', interval: 'month' },
      }),
    );
    expect(plans.filter((s) => s === 200)).toHaveLength(30);
    expect(plans.filter((s) => s !== 200)).toEqual([429]);
  });
});
