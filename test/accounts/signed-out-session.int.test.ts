import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../functions/routes.ts';
import { routeKey } from '../../shared/routing/route.ts';
import { fromNewAddress, type TestApi, testApi } from '../support/api.ts';
import { signUp, studioCreator } from '../support/studio.ts';

/**
 * A signed-out session's access token stays valid up to 15 minutes, and one from a sign-in of the
 * last 10 minutes passes the step-up middleware: every step-up route (and the address change's
 * confirmation) asks whether its session is still signed in (docs/accounts.md "Sessions"). The
 * step-up routes come from the route table, so a new one without a case here fails.
 */
let api: TestApi;
beforeAll(async () => {
  api = await testApi();
});

const PASSWORD = 'correct-horse-1';
const SIGNED_OUT = 'This session was signed out: sign in again';

/** The session (refresh family) an access token was issued for: its `sid`. */
const sessionOf = (accessToken: string): string =>
  JSON.parse(Buffer.from(accessToken.split('.')[1] ?? '', 'base64url').toString()).sid;

type Call = (token: string, handle: string) => Promise<{ status: number; body: unknown }>;

const calls: Record<string, Call> = {
  'POST /me/password': (token) =>
    api.post('/me/password', {
      token,
      body: { current_password: PASSWORD, new_password: 'a-new-long-passphrase' },
    }),
  'POST /me/email': (token) =>
    api.post('/me/email', {
      token,
      body: { new_email: `taken.${Date.now()}@example.com`, current_password: PASSWORD },
    }),
  'POST /me/email/verify': (token) => api.post('/me/email/verify', { token, body: { code: '123456' } }),
  'POST /me/mfa/totp': (token) => api.post('/me/mfa/totp', { token, body: {} }),
  'POST /me/mfa/totp/recovery-codes': (token) => api.post('/me/mfa/totp/recovery-codes', { token }),
  'DELETE /me/mfa/totp': (token) => api.delete('/me/mfa/totp', { token }),
  'DELETE /me': (token, handle) => api.delete('/me', { token, body: { confirm: handle } }),
  'GET /studio/channel': (token) => api.get('/studio/channel', { token }),
  'POST /studio/channel': (token) => api.post('/studio/channel', { token }),
  'POST /studio/channel/stream-key/rotate': (token) =>
    api.post('/studio/channel/stream-key/rotate', { token }),
  'POST /studio/payouts/onboarding': (token) => api.post('/studio/payouts/onboarding', { token }),
  'PUT /studio/plan': (token) =>
    api.put('/studio/plan', { token, body: { price: 7.5, currency: 'EUR', interval: 'year' } }),
};

describe("a signed-out session's access token", () => {
  it('every step-up route has a case here', () => {
    const stepUp = routes.filter((row) => row.stepUp).map(routeKey);
    expect(stepUp.filter((key) => !calls[key])).toEqual([]);
  });

  it.each(Object.entries(calls))(
    '%s refuses it, 401, and changes nothing (was accepted for the token’s 15 minutes: a thief signed out by the owner could still move, lock or delete the account, read or rotate the stream key, onboard payouts, set the price)',
    async (route, call) => {
      // The studio's routes need a creator (else 403 hides whether the session was checked).
      const {
        token: owner,
        email,
        handle,
      } = route.includes('/studio/')
        ? await studioCreator(api)
        : await (async () => {
            const made = await signUp(api, 'signedout');
            expect(made.res.status).toBe(201);
            return { token: made.res.body.data.auth_token as string, email: made.email, handle: made.handle };
          })();
      const thief = await api.post('/auth/login', fromNewAddress({ body: { email, password: PASSWORD } }));
      expect(thief.status).toBe(200);
      const token: string = thief.body.data.auth_token;
      const out = await api.delete(`/me/sessions/${sessionOf(token)}`, { token: owner });
      expect(out.status).toBe(204);

      const answer = await call(token, handle);
      expect([answer.status, (answer.body as { message?: string }).message]).toEqual([401, SIGNED_OUT]);
      // Nothing changed: the owner's address and password sign in, the account is not deleted, no
      // channel was made, no enrolment started.
      const me = await api.get('/me', { token: owner });
      expect([me.status, me.body.data?.email, me.body.data?.second_factors]).toEqual([200, email, []]);
      const again = await api.post('/auth/login', fromNewAddress({ body: { email, password: PASSWORD } }));
      expect(again.status).toBe(200);
      if (route.includes('/studio/'))
        expect((await api.get('/studio/channel', { token: owner })).status).toBe(404);
    },
  );
});
