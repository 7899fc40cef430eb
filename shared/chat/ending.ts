/**
 * What ending an account's chat connections is made of (docs/chat.md "Ending an account's
 * connections"), as data: what the API queues (shared/accounts/end-chat.ts) needs no IVS Chat
 * client, which only the account jobs worker loads (./disconnect-account.ts).
 */

/** What IVS Chat tells the account's connections when they end (the `reason` of DisconnectUser). */
export const DISCONNECTED = {
  deleted: 'This account was deleted',
  signedOut: 'Signed out everywhere',
  sessionSignedOut: 'This session was signed out',
} as const;
export type DisconnectReason = keyof typeof DISCONNECTED;
export const DISCONNECT_REASONS = Object.keys(DISCONNECTED) as [DisconnectReason, ...DisconnectReason[]];

/**
 * Whose chat connections a sign-out ends: those of every session but `keep` (a deletion, a reset:
 * none kept; "sign out everywhere" and a password change keep the caller's own), or of `only` one
 * session (`DELETE /me/sessions/{id}`). A record without a session (written before stop 57, or
 * for a token without one) counts as any session but one named by `only`.
 */
export interface SignedOutSessions {
  keep?: string;
  only?: string;
}

/**
 * How long after it is made a chat token can still open a connection: IVS Chat's token is valid
 * for one minute (its CLI reference: "The token is valid for one minute, and a connection
 * (session) established with the token is valid for the specified duration"), plus a minute for
 * the clocks of IVS and the function.
 */
export const CHAT_TOKEN_CONNECTS_WITHIN_MS = 2 * 60_000;

/**
 * How long the recheck waits after a sign-out or deletion: until no chat token made before it can
 * connect any more (`CHAT_TOKEN_CONNECTS_WITHIN_MS`, counted from the latest moment a token route
 * that checked the session just before can make one: its 10-second timeout later), plus 20 seconds.
 */
export const CHAT_RECHECK_DELAY_SECONDS = CHAT_TOKEN_CONNECTS_WITHIN_MS / 1000 + 10 + 20;
