import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { mintGoogleIdToken } from '../../scripts/local/local-idp.ts';
import { type ApiResponse, fromNewAddress as from, type TestApi, testApi } from '../support/api.ts';

let api: TestApi;
beforeAll(async () => {
  api = await testApi();
});

const unique = () => randomUUID().replace(/-/g, '').slice(0, 12);

/** RFC 6749 5.1: a response carrying tokens must not be stored by any cache. */
const expectNotCacheable = (res: ApiResponse, expectedStatus: number) => {
  expect(res.status).toBe(expectedStatus);
  expect(res.body.data.auth_token ?? res.body.data.refresh_token).toEqual(expect.any(String));
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.headers.get('pragma')).toBe('no-cache');
};

describe('responses that carry tokens are not cacheable', () => {
  it('sign-up, login, refresh, and Google sign-up and sign-in', async () => {
    const email = `cache.${unique()}@example.com`;
    const signUp = await api.post(
      '/onboarding/account/create',
      from({
        body: {
          email,
          password: 'correct-horse-1',
          creator_name: 'Cache',
          handle: `c_${unique()}`,
          agreed_to_terms: true,
        },
      }),
    );
    expectNotCacheable(signUp, 201);
    expectNotCacheable(
      await api.post('/auth/login', from({ body: { email, password: 'correct-horse-1' } })),
      200,
    );
    expectNotCacheable(
      await api.post('/auth/refresh', from({ body: { refresh_token: signUp.body.data.refresh_token } })),
      200,
    );
    const googleEmail = `cache.g.${unique()}@gmail.com`;
    const google = (handle?: string) =>
      api.post(
        '/onboarding/account/google',
        from({
          body: { google_token: mintGoogleIdToken({ email: googleEmail }), handle, agreed_to_terms: true },
        }),
      );
    expectNotCacheable(await google(`g_${unique()}`), 201);
    expectNotCacheable(await google(), 200);
  });

  it('leaves responses without tokens alone', async () => {
    const res = await api.get(`/onboarding/account/check-email?email=free.${unique()}@example.com`, from());
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBeNull();
  });
});
