import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { mintGoogleIdToken } from '../../scripts/local/local-idp.ts';
import { fromNewAddress as from, type TestApi, testApi } from '../support/api.ts';

let api: TestApi;
beforeAll(async () => {
  api = await testApi();
});

const unique = () => randomUUID().replace(/-/g, '').slice(0, 12);
const signUpBody = (over: Record<string, unknown> = {}) => {
  const id = unique();
  return {
    email: `Maker.${id}@Example.com `,
    password: 'correct-horse-1',
    creator_name: 'Maker',
    handle: `maker_${id}`,
    agreed_to_terms: true,
    ...over,
  };
};

describe('POST /onboarding/account/create', () => {
  it('creates an account: 201 with tokens, handle_url and the onboarding block', async () => {
    const body = signUpBody();
    const res = await api.post('/onboarding/account/create', from({ body }));
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('success');
    expect(res.body.data).toMatchObject({
      creator_id: expect.stringMatching(/^acc_/),
      email: body.email.trim().toLowerCase(),
      creator_name: 'Maker',
      handle: body.handle,
      handle_url: `https://creators.example.com/@${body.handle}`,
      user_status: 'onboarding',
      auth_token: expect.any(String),
      refresh_token: expect.any(String),
      onboarding: { current_step: 2, total_steps: 3, percent_complete: 0 },
    });
    expect(Date.parse(res.body.data.token_expires_at)).toBeGreaterThan(Date.now());
    expect(JSON.stringify(res.body)).not.toContain(body.password);
  });

  it('answers 422 naming each invalid field', async () => {
    const res = await api.post(
      '/onboarding/account/create',
      from({
        body: {
          email: 'nope',
          password: 'short',
          creator_name: '',
          handle: 'bad handle!',
          agreed_to_terms: false,
        },
      }),
    );
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ status: 'error', code: 422 });
    const fields = res.body.errors.map((e: { field: string }) => e.field).sort();
    expect(fields).toEqual(['agreed_to_terms', 'creator_name', 'email', 'handle', 'password']);
  });

  it('answers 409 for a registered email (any case) and a taken handle (any case)', async () => {
    const body = signUpBody();
    expect((await api.post('/onboarding/account/create', from({ body }))).status).toBe(201);
    const sameEmail = await api.post(
      '/onboarding/account/create',
      from({ body: signUpBody({ email: body.email.toUpperCase() }) }),
    );
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body).toEqual({ status: 'error', code: 409, message: 'Email already registered' });
    const sameHandle = await api.post(
      '/onboarding/account/create',
      from({ body: signUpBody({ handle: body.handle.toUpperCase() }) }),
    );
    expect(sameHandle.status).toBe(409);
    expect(sameHandle.body.message).toBe('Handle already taken');
  });

  it('refuses handles that read as creator ids (acc_, cr_, any case): /creators/{id} would find another creator', async () => {
    for (const handle of ['acc_mine', 'CR_0001', 'Acc_x12']) {
      const res = await api.post('/onboarding/account/create', from({ body: signUpBody({ handle }) }));
      expect(res.status, handle).toBe(422);
      expect(JSON.stringify(res.body.errors), handle).toContain('acc_ or cr_');
      const check = await api.get(`/onboarding/account/check-handle?handle=${handle}`, from());
      expect(check.body.data.available, handle).toBe(false);
    }
    expect(
      (
        await api.post(
          '/onboarding/account/create',
          from({ body: signUpBody({ handle: `access_${unique().slice(0, 8)}` }) }),
        )
      ).status,
    ).toBe(201);
  });

  /**
   * A sign-up hashes its password (scrypt, on libuv's threadpool: 4 threads) before its one
   * conditional transaction, so however many are fired, their writes reach DynamoDB at most 4 at
   * a time: the first 4 race for the handle, later ones meet the marker already written. 8 (two
   * waves) races exactly as 50 did, for 16 hashes instead of 100 (24 s of a 33 s file on the
   * 2-core CI machine). SIGNUP_RACERS=50 runs the old width.
   */
  const RACERS = Number(process.env.SIGNUP_RACERS ?? 8);
  it(`lets exactly one of ${RACERS} parallel sign-ups take a handle, and one take an email`, async () => {
    const handle = `race_${unique()}`;
    const byHandle = await Promise.all(
      Array.from({ length: RACERS }, () =>
        api.post('/onboarding/account/create', from({ body: signUpBody({ handle }) })),
      ),
    );
    expect(byHandle.filter((r) => r.status === 201)).toHaveLength(1);
    expect(byHandle.filter((r) => r.status === 409)).toHaveLength(RACERS - 1);
    const email = `race.${unique()}@example.com`;
    const byEmail = await Promise.all(
      Array.from({ length: RACERS }, () =>
        api.post('/onboarding/account/create', from({ body: signUpBody({ email }) })),
      ),
    );
    expect(byEmail.filter((r) => r.status === 201)).toHaveLength(1);
    expect(byEmail.filter((r) => r.status === 409)).toHaveLength(RACERS - 1);
  }, 120_000); // 2 x RACERS scrypt hashes: CPU-bound, slow on a busy 2-core machine

  it('rate-limits sign-ups per client address with 429, Retry-After and RateLimit headers', async () => {
    const headers = { 'x-forwarded-for': `192.0.2.${Math.floor(Math.random() * 250)}` };
    const results = [];
    for (let i = 0; i < 11; i++)
      results.push(await api.post('/onboarding/account/create', { body: { nope: true }, headers }));
    expect(results.slice(0, 10).every((r) => r.status === 422)).toBe(true);
    const limited = results[10]!;
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ status: 'error', code: 429 });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('ratelimit')).toMatch(/limit=10, remaining=0, reset=\d+/);
    expect(limited.headers.get('ratelimit-policy')).toBe('10;w=60');
  });
});

describe('availability checks', () => {
  it('check-handle: available with handle_url; taken with available suggestions', async () => {
    const free = `free_${unique()}`;
    const ok = await api.get(`/onboarding/account/check-handle?handle=${free}`, from());
    expect(ok.body.data).toEqual({
      handle: free,
      available: true,
      handle_url: `https://creators.example.com/@${free}`,
      suggestions: [],
    });
    const body = signUpBody();
    await api.post('/onboarding/account/create', from({ body }));
    const taken = await api.get(`/onboarding/account/check-handle?handle=${body.handle}`, from());
    expect(taken.body.data.available).toBe(false);
    expect(taken.body.data.suggestions.length).toBeGreaterThan(0);
    for (const s of taken.body.data.suggestions) {
      const check = await api.get(`/onboarding/account/check-handle?handle=${s}`, from());
      expect(check.body.data.available, s).toBe(true);
    }
    expect((await api.get('/onboarding/account/check-handle', from())).status).toBe(400);
  });

  it('check-email: taken with a message, free without', async () => {
    const body = signUpBody();
    await api.post('/onboarding/account/create', from({ body }));
    const taken = await api.get(
      `/onboarding/account/check-email?email=${encodeURIComponent(body.email.trim())}`,
      from(),
    );
    expect(taken.body.data).toMatchObject({ available: false, message: expect.any(String) });
    const free = await api.get(`/onboarding/account/check-email?email=free.${unique()}@example.com`, from());
    expect(free.body.data.available).toBe(true);
  });
});

describe('onboarding steps', () => {
  it('moves from onboarding to active over category and social connect', async () => {
    const account = (await api.post('/onboarding/account/create', from({ body: signUpBody() }))).body.data;
    const token = account.auth_token;
    expect((await api.get('/onboarding/categories')).body.data.categories).toHaveLength(8);
    const step2 = await api.post('/onboarding/category', { body: { category_id: 'music' }, token });
    expect(step2.status).toBe(200);
    expect(step2.body.data.onboarding).toEqual({ current_step: 3, total_steps: 3, percent_complete: 50 });
    expect(step2.body.data.user_status).toBe('onboarding');
    expect((await api.get('/onboarding/social/platforms')).body.data.platforms.length).toBeGreaterThan(2);
    const step3 = await api.post('/onboarding/social/connect', {
      body: { platform: 'youtube', access_token: 'sdk-token-123' },
      token,
    });
    expect(step3.status).toBe(200);
    expect(step3.body.data.user_status).toBe('active');
    expect(step3.body.data.onboarding.percent_complete).toBe(100);
    expect(JSON.stringify(step3.body)).not.toContain('sdk-token-123');
    expect((await api.post('/onboarding/category', { body: { category_id: 'cooking' }, token })).status).toBe(
      422,
    );
    expect((await api.post('/onboarding/category', { body: { category_id: 'music' } })).status).toBe(401);
  });
});

describe('Google sign-in', () => {
  it('creates (201, handle required) then signs in (200) with the same Google account', async () => {
    const email = `g.${unique()}@gmail.com`;
    const token = mintGoogleIdToken({ email });
    const noHandle = await api.post(
      '/onboarding/account/google',
      from({ body: { google_token: token, agreed_to_terms: true } }),
    );
    expect(noHandle.status).toBe(422);
    expect(noHandle.body.errors[0].field).toBe('handle');
    const handle = `g_${unique()}`;
    const created = await api.post(
      '/onboarding/account/google',
      from({ body: { google_token: token, handle, agreed_to_terms: true } }),
    );
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      is_new_account: true,
      handle,
      email,
      onboarding: { current_step: 2 },
    });
    const again = await api.post(
      '/onboarding/account/google',
      from({ body: { google_token: mintGoogleIdToken({ email }), agreed_to_terms: true } }),
    );
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({
      is_new_account: false,
      creator_id: created.body.data.creator_id,
    });
  });

  it('lets a Google creator replace the handle typed at sign-in: the old one is freed, a taken one is 409', async () => {
    const first = `g_${unique()}`;
    const created = await api.post(
      '/onboarding/account/google',
      from({
        body: {
          google_token: mintGoogleIdToken({ email: `h.${unique()}@gmail.com` }),
          handle: first,
          agreed_to_terms: true,
        },
      }),
    );
    const token = created.body.data.auth_token;
    const second = `g_${unique()}`;
    const changed = await api.put('/onboarding/account/handle', { token, body: { handle: second } });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({
      handle: second,
      handle_url: expect.stringMatching(new RegExp(`/@${second}$`)),
      onboarding: { current_step: 2 },
    });
    const check = (h: string) => api.get(`/onboarding/account/check-handle?handle=${h}`, from());
    expect((await check(first)).body.data.available).toBe(true);
    expect((await check(second)).body.data.available).toBe(false);
    // Letter case only: same marker, new spelling.
    const recased = await api.put('/onboarding/account/handle', {
      token,
      body: { handle: second.toUpperCase() },
    });
    expect(recased.status).toBe(200);
    expect(recased.body.data.handle).toBe(second.toUpperCase());
    // Someone else's handle (any case) is 409; a bad one 422; no token 401.
    const other = (await api.post('/onboarding/account/create', from({ body: signUpBody() }))).body.data;
    const taken = await api.put('/onboarding/account/handle', {
      token: other.auth_token,
      body: { handle: second.toLowerCase() },
    });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ status: 'error', code: 409, message: 'Handle already taken' });
    const bad = await api.put('/onboarding/account/handle', { token, body: { handle: 'no spaces!' } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].field).toBe('handle');
    expect((await api.put('/onboarding/account/handle', { body: { handle: `g_${unique()}` } })).status).toBe(
      401,
    );
  });

  it('answers 401 for expired, foreign-audience, foreign-issuer and forged tokens', async () => {
    const email = `g.${unique()}@gmail.com`;
    const past = Math.floor(Date.now() / 1000) - 7200;
    const bad = [
      mintGoogleIdToken({ email }, { iat: past, exp: past + 60 }),
      mintGoogleIdToken({ email }, { aud: 'another-app.apps.googleusercontent.com' }),
      mintGoogleIdToken({ email }, { iss: 'https://evil.example.com' }),
      `${mintGoogleIdToken({ email }).slice(0, -4)}AAAA`,
      'not-a-token',
    ];
    for (const google_token of bad) {
      const res = await api.post(
        '/onboarding/account/google',
        from({ body: { google_token, handle: `g_${unique()}`, agreed_to_terms: true } }),
      );
      expect(res.status).toBe(401);
    }
  });

  it('an over-long token or password is a 422 saying its limit (was "is required")', async () => {
    for (const [path, body, field, max] of [
      [
        '/onboarding/account/google',
        { google_token: 'a'.repeat(8193), agreed_to_terms: true },
        'google_token',
        8192,
      ],
      ['/auth/login', { email: 'viewer@demo.stream', password: 'p'.repeat(257) }, 'password', 256],
      ['/auth/refresh', { refresh_token: 'r'.repeat(513) }, 'refresh_token', 512],
    ] as const) {
      const res = await api.post(path, from({ body }));
      expect(res.status, field).toBe(422);
      expect(res.body.errors, field).toContainEqual({
        field,
        message: `${field} must be at most ${max} characters`,
      });
    }
  });
});

describe('login, refresh, logout', () => {
  it('logs the demo viewer in and rejects a wrong password with one generic 401', async () => {
    const ok = await api.post(
      '/auth/login',
      from({ body: { email: 'viewer@demo.stream', password: 'demo-password-1' } }),
    );
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ creator_id: 'acc_demo_viewer', auth_token: expect.any(String) });
    const wrong = await api.post(
      '/auth/login',
      from({ body: { email: 'viewer@demo.stream', password: 'nope-nope-nope' } }),
    );
    const unknown = await api.post(
      '/auth/login',
      from({ body: { email: `nobody.${unique()}@example.com`, password: 'whatever-1' } }),
    );
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.message).toBe(unknown.body.message);
  });

  it('rotates refresh tokens and revokes the family when an old one is reused', async () => {
    const { refresh_token: first } = (
      await api.post('/onboarding/account/create', from({ body: signUpBody() }))
    ).body.data;
    const rotated = await api.post('/auth/refresh', from({ body: { refresh_token: first } }));
    expect(rotated.status).toBe(200);
    const second = rotated.body.data.refresh_token;
    expect(second).not.toBe(first);
    const reuse = await api.post('/auth/refresh', from({ body: { refresh_token: first } }));
    expect(reuse.status).toBe(401);
    // The thief's replay killed the family: the legitimate newer token is dead too.
    expect((await api.post('/auth/refresh', from({ body: { refresh_token: second } }))).status).toBe(401);
  });

  it('a secret never issued is refused without revoking: knowing a session id does not end it (any wrong secret did)', async () => {
    const { refresh_token: first } = (
      await api.post('/onboarding/account/create', from({ body: signUpBody() }))
    ).body.data;
    const family = String(first).split('.')[0];
    const second = (await api.post('/auth/refresh', from({ body: { refresh_token: first } }))).body.data
      .refresh_token;
    // The session id is in every access token (`sid`) and in GET /me/sessions; the secret is not.
    for (const guess of [`${family}.AAAA`, `${family}.${'x'.repeat(43)}`]) {
      const refused = await api.post('/auth/refresh', from({ body: { refresh_token: guess } }));
      expect([refused.status, refused.body.message]).toEqual([401, 'Invalid refresh token']);
    }
    const third = await api.post('/auth/refresh', from({ body: { refresh_token: second } }));
    expect(third.status).toBe(200);
    // A token retired by a rotation is still reuse, two rotations back too: the family dies.
    const reuse = await api.post('/auth/refresh', from({ body: { refresh_token: first } }));
    expect([reuse.status, reuse.body.message]).toEqual([
      401,
      'Refresh token reuse detected: every session of this sign-in was revoked',
    ]);
    expect(
      (await api.post('/auth/refresh', from({ body: { refresh_token: third.body.data.refresh_token } })))
        .status,
    ).toBe(401);
  });

  it('logout revokes the refresh token', async () => {
    const account = (await api.post('/onboarding/account/create', from({ body: signUpBody() }))).body.data;
    const out = await api.post('/auth/logout', {
      body: { refresh_token: account.refresh_token },
      token: account.auth_token,
    });
    expect(out.status).toBe(204);
    expect(
      (await api.post('/auth/refresh', from({ body: { refresh_token: account.refresh_token } }))).status,
    ).toBe(401);
  });
});
