import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ivsChatClient } from '../../shared/chat/client.ts';
import { disconnectAccount, roomsToEnd } from '../../shared/chat/disconnect-account.ts';
import { CHAT_TOKEN_CONNECTS_WITHIN_MS } from '../../shared/chat/ending.ts';

/**
 * What `disconnectAccount` does with IVS Chat's answers (docs/chat.md "Ending an account's
 * connections"): a room that is gone is no failure, throttling is retried by the client, anything
 * else is counted and never thrown (the deletion or sign-out goes on). IVS Chat is answered here
 * by a middleware inside the client's retry step, per room.
 */
// The client is made at its first use (below): a region and credentials, which no call here uses.
process.env.AWS_REGION ??= 'us-east-1';
process.env.AWS_ACCESS_KEY_ID ??= 'local';
process.env.AWS_SECRET_ACCESS_KEY ??= 'local';

const room = (name: string) => `arn:aws:ivschat:us-east-1:000000000000:room/${name}`;
const calls: string[] = [];
let throttledOnce = false;
let inFlight = 0;
let busiest = 0;
const error = (name: string, retryable?: object) =>
  Object.assign(new Error(name), { name, $metadata: {}, ...(retryable ? { $retryable: retryable } : {}) });

beforeAll(() => {
  ivsChatClient().middlewareStack.add(
    () => async (args) => {
      const roomArn = (args.input as { roomIdentifier: string }).roomIdentifier;
      calls.push(roomArn);
      if (roomArn === room('gone')) throw error('ResourceNotFoundException');
      if (roomArn === room('busy') && !throttledOnce) {
        throttledOnce = true;
        throw error('ThrottlingException', { throttling: true });
      }
      if (roomArn === room('broken')) throw error('AccessDeniedException');
      inFlight += 1;
      busiest = Math.max(busiest, inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight -= 1;
      return { output: { $metadata: {} }, response: { statusCode: 200, headers: {} } };
    },
    { step: 'finalizeRequest', name: 'ivs-chat-answers' },
  );
});
afterAll(() => ivsChatClient().middlewareStack.remove('ivs-chat-answers'));

describe('disconnectAccount', () => {
  it('answers only the rooms that failed: a room gone is none, throttling is retried, nothing throws', async () => {
    const rooms = ['ok', 'gone', 'busy', 'broken'].map(room);
    await expect(disconnectAccount('ac_1', rooms, 'deleted')).resolves.toEqual([room('broken')]);
    expect(calls.filter((c) => c === room('busy'))).toHaveLength(2);
    expect(calls.filter((c) => c === room('broken')).length).toBeGreaterThanOrEqual(1);
  });

  it('calls every room, ten at a time', async () => {
    calls.length = 0;
    busiest = 0;
    const rooms = Array.from({ length: 25 }, (_, i) => room(`r${i}`));
    await expect(disconnectAccount('ac_1', rooms, 'signedOut')).resolves.toEqual([]);
    expect(calls.sort()).toEqual([...rooms].sort());
    expect(busiest).toBe(10);
  });
});

describe('roomsToEnd: where a pass after a sign-out at `since` disconnects the account', () => {
  const since = new Date('2026-11-30T12:00:00.000Z');
  const at = (offsetMs: number) => new Date(since.getTime() + offsetMs).toISOString();
  const tokens = [
    { room_arn: room('a'), session_id: 'stolen', issued_at: at(-30_000) },
    { room_arn: room('b'), session_id: 'stolen', issued_at: at(-CHAT_TOKEN_CONNECTS_WITHIN_MS - 1) },
    { room_arn: room('c'), session_id: 'kept', issued_at: at(-10_000) },
    { room_arn: room('d'), session_id: 'stolen', issued_at: at(5_000) },
    { room_arn: room('e'), session_id: 'kept', issued_at: at(20_000) },
    { room_arn: room('f') },
  ];
  const pass = (sessions: { keep?: string; only?: string }, recheck: boolean) => ({
    since,
    sessions,
    recheck,
  });

  it("the first pass: every room of a signed-out session's tokens, not the kept session's only; records without a session count as signed out", () => {
    expect(roomsToEnd(tokens, pass({ keep: 'kept' }, false))).toEqual([
      room('a'),
      room('b'),
      room('d'),
      room('f'),
    ]);
  });

  it("the recheck: a signed-out session's recent tokens, not the kept session's, not tokens too old to connect, not records without a time", () => {
    expect(roomsToEnd(tokens, pass({ keep: 'kept' }, true))).toEqual([room('a'), room('d')]);
  });

  it('with no session kept (a reset, a deletion), every room, then every recent token', () => {
    expect(roomsToEnd(tokens, pass({}, false))).toEqual(['a', 'b', 'c', 'd', 'e', 'f'].map(room));
    expect(roomsToEnd(tokens, pass({}, true))).toEqual([room('a'), room('c'), room('d'), room('e')]);
  });

  it('one session signed out (DELETE /me/sessions/{id}): only its tokens', () => {
    expect(roomsToEnd(tokens, pass({ only: 'kept' }, false))).toEqual([room('c'), room('e')]);
    expect(roomsToEnd(tokens, pass({ only: 'kept' }, true))).toEqual([room('c'), room('e')]);
  });
});
