import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../shared/identity/account-repository.ts';
import { issueAccessToken } from '../../shared/identity/access-token.ts';
import type { Me } from '../../shared/identity/account-schemas.ts';
import { fromNewAddress as from, type TestApi, testApi } from '../support/api.ts';
import { studioCreator } from '../support/studio.ts';

let api: TestApi;
beforeAll(async () => {
  api = await testApi();
});

const unique = () => randomUUID().replace(/-/g, '').slice(0, 12);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const signUp = async () => {
  const id = unique();
  const res = await api.post(
    '/onboarding/account/create',
    from({
      body: {
        email: `me.${id}@example.com`,
        password: 'correct-horse-1',
        creator_name: 'Me Maker',
        handle: `me_${id}`,
        agreed_to_terms: true,
      },
    }),
  );
  expect(res.status).toBe(201);
  return { token: res.body.data.auth_token as string, id, accountId: res.body.data.creator_id as string };
};

describe('GET /me', () => {
  it("answers the caller's account with a stable app_account_token", async () => {
    const { token, id, accountId } = await signUp();
    const first = await api.get('/me', { token });
    expect(first.status).toBe(200);
    const me = first.body.data as Me;
    expect(me).toMatchObject({
      account_id: accountId,
      email: `me.${id}@example.com`,
      email_verified: false,
      creator_name: 'Me Maker',
      handle: `me_${id}`,
      role: 'viewer',
      user_status: 'onboarding',
      sign_in_methods: ['password'],
      second_factors: [],
      second_factor_prompt: false,
    });
    expect(me.app_account_token).toMatch(UUID);
    expect((await api.get('/me', { token })).body.data.app_account_token).toBe(me.app_account_token);
  });

  it('makes the app_account_token once for an account created before it existed', async () => {
    const accountId = `acc_${randomUUID()}`;
    await createAccount({
      account_id: accountId,
      email: `legacy.${unique()}@example.com`,
      creator_name: 'Legacy',
      handle: null,
      user_status: 'onboarding',
      completed_steps: [],
      created_at: new Date().toISOString(),
    });
    const { token } = await issueAccessToken(accountId, new Date());
    const [a, b] = await Promise.all([api.get('/me', { token }), api.get('/me', { token })]);
    expect(a.body.data.app_account_token).toMatch(UUID);
    expect(b.body.data.app_account_token).toBe(a.body.data.app_account_token);
    expect((await api.get('/me', { token })).body.data.app_account_token).toBe(a.body.data.app_account_token);
  });

  it('shows a finished creator as a creator prompted to enrol a second factor', async () => {
    const creator = await studioCreator(api);
    const me = (await api.get('/me', { token: creator.token })).body.data as Me;
    expect(me).toMatchObject({ role: 'creator', user_status: 'active', second_factor_prompt: true });
  });

  it('is 401 without a token and 404 for a token whose account is gone', async () => {
    expect((await api.get('/me')).status).toBe(401);
    const { token } = await issueAccessToken(`acc_${randomUUID()}`, new Date());
    const res = await api.get('/me', { token });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ status: 'error', code: 404, message: 'Account not found' });
  });
});

describe('PATCH /me', () => {
  it('changes the display name and the handle; the old handle is free again', async () => {
    const { token, id } = await signUp();
    const res = await api.patch('/me', { token, body: { creator_name: '  New Name ', handle: `new_${id}` } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ creator_name: 'New Name', handle: `new_${id}` });
    const check = await api.get(`/onboarding/account/check-handle?handle=me_${id}`, from());
    expect(check.body.data.available).toBe(true);
  });

  it("refuses another account's handle (409) and an empty or invalid body (422)", async () => {
    const a = await signUp();
    const b = await signUp();
    const taken = await api.patch('/me', { token: b.token, body: { handle: `ME_${a.id}` } });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe('Handle already taken');
    expect((await api.patch('/me', { token: b.token, body: {} })).status).toBe(422);
    const invalid = await api.patch('/me', { token: b.token, body: { handle: 'x' } });
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors[0].field).toBe('handle');
  });
});
