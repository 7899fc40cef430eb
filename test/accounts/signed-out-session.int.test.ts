import { beforeAll, describe, expect, it } from 'vitest';
import { fromNewAddress, type TestApi, testApi } from '../support/api.ts';
import { signUp } from '../support/studio.ts';

/**
 * A signed-out session's access token stays valid up to 15 minutes, and one from a sign-in of the
 * last 10 minutes passes the step-up middleware: the routes that change credentials or delete the
 * account ask whether its session is still signed in (docs/accounts.md "Sessions").
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

const routes: Array<[string, (token: string, handle: string) => Promise<{ status: number; body: unknown }>]> =
  [
    [
      'POST /me/password',
      (token) =>
        api.post('/me/password', {
          token,
          body: { current_password: PASSWORD, new_password: 'a-new-long-passphrase' },
        }),
    ],
    [
      'POST /me/email',
      (token) =>
        api.post('/me/email', {
          token,
          body: { new_email: `taken.${Date.now()}@example.com`, current_password: PASSWORD },
        }),
    ],
    ['POST /me/email/verify', (token) => api.post('/me/email/verify', { token, body: { code: '123456' } })],
    ['DELETE /me/mfa/totp', (token) => api.delete('/me/mfa/totp', { token })],
    ['DELETE /me', (token, handle) => api.delete('/me', { token, body: { confirm: handle } })],
  ];

describe("a signed-out session's access token", () => {
  it.each(routes)(
    '%s refuses it, 401, and changes nothing (was accepted for the token’s 15 minutes: a thief signed out by the owner could still move, lock or delete the account)',
    async (_route, call) => {
      const { res, email, handle } = await signUp(api, 'signedout');
      expect(res.status).toBe(201);
      const owner: string = res.body.data.auth_token;
      const thief = await api.post('/auth/login', fromNewAddress({ body: { email, password: PASSWORD } }));
      expect(thief.status).toBe(200);
      const token: string = thief.body.data.auth_token;
      const out = await api.delete(`/me/sessions/${sessionOf(token)}`, { token: owner });
      expect(out.status).toBe(204);

      const answer = await call(token, handle);
      expect([answer.status, (answer.body as { message?: string }).message]).toEqual([401, SIGNED_OUT]);
      // Nothing changed: the owner's address and password sign in, the account is not deleted.
      const me = await api.get('/me', { token: owner });
      expect([me.status, me.body.data?.email]).toEqual([200, email]);
      const again = await api.post('/auth/login', fromNewAddress({ body: { email, password: PASSWORD } }));
      expect(again.status).toBe(200);
    },
  );
});
