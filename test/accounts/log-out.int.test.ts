import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalAccountJobs } from '../../scripts/local/accounts.ts';
import { fromNewAddress, type TestApi, testApi } from '../support/api.ts';
import { disconnectsOf } from '../support/chat-socket.ts';
import { signUp } from '../support/studio.ts';

/** `POST /auth/logout` signs out as `DELETE /me/sessions/{id}` does (docs/accounts.md "Sessions"). */
let api: TestApi;
let jobs: Awaited<ReturnType<typeof startLocalAccountJobs>>;
beforeAll(async () => {
  api = await testApi();
  jobs = await startLocalAccountJobs();
});
afterAll(() => jobs.stop());

/** A new account with a second sign-in (its `auth_token` and `refresh_token`). */
const accountWithTwoSessions = async (prefix: string) => {
  const { res, email } = await signUp(api, prefix);
  expect(res.status).toBe(201);
  const other = await api.post(
    '/auth/login',
    fromNewAddress({ body: { email, password: 'correct-horse-1' } }),
  );
  expect(other.status).toBe(200);
  return {
    accountId: res.body.data.creator_id as string,
    token: res.body.data.auth_token as string,
    other: other.body.data as { auth_token: string; refresh_token: string },
  };
};

/** Has the access token fetched a chat token in a live channel's room (the first that gives one)? */
const holdChatToken = async (token: string) => {
  const live = await api.get('/creators/live');
  for (const { id } of live.body.data.creators as { id: string }[]) {
    const chat = await api.post(`/creators/${id}/channel/chat/token`, fromNewAddress({ token }));
    if (chat.status === 200) return id;
  }
  throw new Error('no live channel gave a chat token');
};

describe('POST /auth/logout', () => {
  it("ends the signed-out session's chat connections: a pass now and the recheck, DisconnectUser in its room (was none: the connection chatted on for its hour)", async () => {
    const { accountId, other } = await accountWithTwoSessions('logout');
    // The channel that gave it a chat token (the first of the live list may be one with no chat
    // room, made by another file: 404 "This channel has no chat" in a clean-clone CI run).
    const channel = await holdChatToken(other.auth_token);
    const rooms = disconnectsOf(accountId);
    const out = await api.post('/auth/logout', {
      token: other.auth_token,
      body: { refresh_token: other.refresh_token },
    });
    expect(out.status).toBe(204);
    await jobs.drain({ elapse: true });
    expect(jobs.deadLetters()).toEqual([]);
    expect(rooms).toHaveLength(2);
    expect(new Set(rooms).size).toBe(1);
    // Its access token gets no new chat token (the chat token route asks the session).
    const again = await api.post(
      `/creators/${channel}/channel/chat/token`,
      fromNewAddress({ token: other.auth_token }),
    );
    expect([again.status, again.body.message]).toEqual([401, 'This session was signed out: sign in again']);
  });

  it("with another account's refresh token revokes nothing and ends no chat (204, as for a token already revoked)", async () => {
    const victim = await accountWithTwoSessions('victim');
    await holdChatToken(victim.other.auth_token);
    const attacker = await accountWithTwoSessions('attacker');
    const rooms = disconnectsOf(victim.accountId);
    const out = await api.post('/auth/logout', {
      token: attacker.token,
      body: { refresh_token: victim.other.refresh_token },
    });
    expect(out.status).toBe(204);
    await jobs.drain({ elapse: true });
    expect(rooms).toEqual([]);
    expect(
      (await api.post('/auth/refresh', { body: { refresh_token: victim.other.refresh_token } })).status,
    ).toBe(200);
  });
});
