import { Secret } from 'otpauth';
import { beforeAll, describe, expect, it } from 'vitest';
import { clock } from '../../shared/clock.ts';
import { totpCodeAt } from '../../shared/identity/totp.ts';
import { fromNewAddress as from, type TestApi, testApi } from '../support/api.ts';
import { studioCreator } from '../support/studio.ts';

// The operator's `creatorSecondFactor: required`, as the local deployment takes it (this file's
// process only: the local platform derives each function's environment at its first call).
process.env.CREATOR_SECOND_FACTOR = 'required';

let api: TestApi;
beforeAll(async () => {
  api = await testApi();
});

const asOf = async <T>(at: Date, fn: () => Promise<T>): Promise<T> => {
  const realNow = clock.now;
  clock.now = () => at;
  try {
    return await fn();
  } finally {
    clock.now = realNow;
  }
};

describe('a second factor required of creators (creatorSecondFactor: required)', () => {
  it('refuses the studio to a creator until they sign in with one, and GET /me says so', async () => {
    const creator = await studioCreator(api);
    const me = (await api.get('/me', { token: creator.token })).body.data;
    expect(me).toMatchObject({ role: 'creator', second_factor_prompt: true, second_factor_required: true });

    for (const [method, path] of [
      ['GET', '/studio/channel'],
      ['GET', '/studio/payouts'],
      ['POST', '/studio/shows'],
    ] as const) {
      const refused = await api.request(method, path, { token: creator.token });
      expect(refused.status, path).toBe(403);
      expect(refused.body).toMatchObject({ code: 403, reason: 'second_factor_required' });
      expect(refused.body.message).toContain('POST /me/mfa/totp');
    }

    // Enrolment is open to them; the confirmation's token carries the factor and passes.
    const start = await api.post('/me/mfa/totp', { token: creator.token, body: {} });
    expect(start.status).toBe(201);
    const secret = new Uint8Array(Secret.fromBase32(start.body.data.secret).buffer);
    const now = new Date();
    const confirmed = await asOf(now, () =>
      api.post('/me/mfa/totp/confirm', { token: creator.token, body: { code: totpCodeAt(secret, now) } }),
    );
    expect(confirmed.status).toBe(200);
    const passes = await api.get('/studio/channel', { token: confirmed.body.data.auth_token });
    expect(passes.body.reason).toBeUndefined();
    expect(passes.status).not.toBe(403);
    const after = (await api.get('/me', { token: confirmed.body.data.auth_token })).body.data;
    expect(after).toMatchObject({ second_factor_prompt: false, second_factor_required: true });
    expect(after.second_factors).toHaveLength(1);

    // The token of the sign-up (no second factor) is still refused; a sign-in with the code passes.
    expect((await api.get('/studio/channel', { token: creator.token })).status).toBe(403);
    const email = me.email as string;
    const login = await api.post('/auth/login', from({ body: { email, password: 'correct-horse-1' } }));
    expect(login.status).toBe(202);
    const next = new Date(now.getTime() + 30_000);
    const signedIn = await asOf(next, () =>
      api.post(
        '/auth/mfa',
        from({ body: { challenge_token: login.body.data.challenge_token, code: totpCodeAt(secret, next) } }),
      ),
    );
    expect(signedIn.status).toBe(200);
    const studio = await api.get('/studio/channel', { token: signedIn.body.data.auth_token });
    expect(studio.status).not.toBe(403);
  });

  it('asks nothing of viewers: GET /me says no factor is required of them', async () => {
    const id = Math.random().toString(36).slice(2, 12);
    const viewer = await api.post(
      '/onboarding/account/create',
      from({
        body: {
          email: `viewer.${id}@example.com`,
          password: 'correct-horse-1',
          creator_name: 'Viewer',
          handle: `v_${id}`,
          agreed_to_terms: true,
        },
      }),
    );
    const me = (await api.get('/me', { token: viewer.body.data.auth_token })).body.data;
    expect(me).toMatchObject({ role: 'viewer', second_factor_prompt: false, second_factor_required: false });
  });
});
