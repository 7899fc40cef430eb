import { revokeAllSessions } from '../identity/refresh-tokens.ts';
import { endChatConnections } from './end-chat.ts';

/**
 * Signs the account out everywhere (but `keep`, the caller's own session, when given): every other
 * sign-in revoked and their open chat connections ended (then rechecked: a token a revoked session
 * fetched just before can still connect for a minute), side by side. IVS Chat disconnects a user
 * id, not a session, so the caller's own chat connection ends too in a room where a revoked
 * session also holds a token (its app asks for a new token, which a live session gets). Access tokens already issued run out within 15
 * minutes; until then the chat token route refuses a revoked session's (shared/chat/tokens.ts).
 * `DELETE /me/sessions`, `POST /me/password`, `POST /auth/password/reset`; the number revoked.
 * The account's sign-out count goes up before the sessions are listed (`revokeAllSessions`), so a
 * sign-in under way, which read the account before, stores no session after (docs/accounts.md
 * "Sessions"); the kept session is no sign-in and refreshes on. `chat.budgeted`: the chat passes
 * only within the account's budget (`DELETE /me/sessions`, which has no budget of its own).
 */
export const signOutEverywhere = async (
  accountId: string,
  now: Date,
  keep?: string,
  chat: { budgeted?: boolean } = {},
): Promise<number> => {
  const [revoked] = await Promise.all([
    revokeAllSessions(accountId, now, keep),
    endChatConnections(accountId, now, 'signedOut', { keep }, chat),
  ]);
  return revoked;
};
