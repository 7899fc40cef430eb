import { beforeAll, describe, expect, it } from 'vitest';
import { fromNewAddress, type TestApi, testApi } from '../support/api.ts';
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
  it('the sign-out routes have a per-account budget: each request queues two account jobs that call IVS Chat DisconnectUser in every room a signed-out session holds a token for (was unbounded)', async () => {
    const { res, email } = await signUp(api, 'budget');
    expect(res.status).toBe(201);
    const token: string = res.body.data.auth_token;
    const other = await api.post(
      '/auth/login',
      fromNewAddress({ body: { email, password: 'correct-horse-1' } }),
    );
    expect(other.status).toBe(200);
    const sessions = await api.get('/me/sessions', { token });
    const otherId: string = sessions.body.data.sessions.find((s: { current: boolean }) => !s.current).id;

    const everywhere = await statuses(11, () => api.delete('/me/sessions', { token }));
    expect(everywhere.filter((s) => s === 200)).toHaveLength(10);
    expect(everywhere.filter((s) => s !== 200)).toEqual([429]);
    const over = await api.delete('/me/sessions', { token });
    expect([over.status, over.body.reason]).toEqual([429, 'rate_limit']);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);

    const one = await statuses(21, () => api.delete(`/me/sessions/${otherId}`, { token }));
    expect(one.filter((s) => s === 204)).toHaveLength(20);
    expect(one.filter((s) => s !== 204)).toEqual([429]);
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
