import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { UnauthorizedError } from '../errors/errors.ts';
import { issueAccessToken } from './access-token.ts';
import {
  countSignOut,
  getAccount,
  isActiveAccount,
  type SignInBasis,
  signInBasisCheck,
} from './account-repository.ts';
import { deviceLabel } from './device-label.ts';
import { usable } from './live-session.ts';
import {
  getRefreshFamily,
  putRefreshFamily,
  refreshFamiliesOf,
  renewRefreshAuthTime,
  revokeRefreshFamilyOf,
  putRotatedSecret,
  rotateRefreshSecret,
  setRefreshFamilyRevoked,
  wasRotatedSecret,
} from './refresh-family-repository.ts';
import type { SessionTokens } from './schemas.ts';
import { compareText } from '../compare.ts';

/**
 * Rotating refresh tokens with reuse detection. A refresh token is `<family id>.<secret>`; the
 * family item (shared/identity/refresh-family-repository.ts, TTL at its expiry) stores only the
 * SHA-256 of the current secret. Refreshing swaps the hash with a condition on the old one, so one token
 * can be used once; presenting an already-rotated token revokes the whole family (a stolen token
 * and its thief's successors die together). Each retired secret's hash is kept (its own item,
 * until the family expires), so reuse is told from a secret that was never issued: that one is
 * only refused (401). Until stop 58 any wrong secret revoked the family, so whoever knew a
 * session id (every access token carries it as `sid`, `GET /me/sessions` lists them) could end
 * that session at will with `<id>.AAAA`. Logout revokes the family.
 * A family is one sign-in, what `GET /me/sessions` lists (docs/accounts.md): it also keeps the
 * device label, when it was created and last refreshed, and its `auth_time` (epoch seconds of the
 * last primary authentication: the sign-in, or a later step-up), which every access token it
 * issues carries. An account's families are found by its id with consistent reads
 * (`refreshFamiliesOf`: the session list, sign-out everywhere, a reset, the export and the purge),
 * so a sign-in made a moment before is never missed. A refresh is
 * refused once the account is deleted (a consistent GetItem of the account: the tombstone stops
 * refreshes at once).
 */
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;

const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');
const newSecret = () => randomBytes(32).toString('base64url');
const epoch = (date: Date) => Math.floor(date.getTime() / 1000);
const FAMILY_ID = /^[0-9a-f-]{36}$/;

const parse = (token: string) => {
  const [family, secret] = token.split('.');
  if (!family || !secret || !FAMILY_ID.test(family)) throw new UnauthorizedError('Invalid refresh token');
  return { family, secret };
};

/** Is `id` shaped like a family id (a UUID)? */
export const isSessionId = (id: string): boolean => FAMILY_ID.test(id);

/** One sign-in of an account, as `GET /me/sessions` shows it. */
export interface SignInSession {
  id: string;
  device: string;
  created_at: string;
  last_used_at: string;
  expires_at: string;
}

/** The 401s of a sign-in whose account changed between its read and its session's write. */
const PASSWORD_CHANGED = 'The password changed while signing in: sign in again with the new one';
const SIGNED_OUT = 'This account was signed out everywhere while signing in: sign in again';

/**
 * The token pair a sign-in returns; `userAgent` labels the device in the session list.
 * `factorId`: the second factor the sign-in passed (its tokens, refreshed ones included, carry
 * `amr: ["mfa"]` and the factor's id). `basis`: the account as the sign-in read it (its sign-out
 * count, and a password sign-in's checked password): the session is stored only while the account
 * is still so (401 otherwise), so a sign-out everywhere, a change or a reset that ran meanwhile,
 * which could not see this session yet, is not outlived (docs/accounts.md "Sessions").
 */
export const issueSession = async (
  accountId: string,
  basis: SignInBasis,
  now: Date,
  userAgent?: string,
  factorId?: string,
): Promise<SessionTokens> => {
  const secondFactor = factorId !== undefined;
  const family = randomUUID();
  const secret = newSecret();
  const expires = epoch(now) + REFRESH_TOKEN_TTL_SECONDS;
  const stored = await putRefreshFamily(
    {
      family,
      account_id: accountId,
      current: sha256(secret),
      revoked: false,
      device: deviceLabel(userAgent),
      created_at: now.toISOString(),
      last_used_at: now.toISOString(),
      auth_time: epoch(now),
      ...(secondFactor ? { second_factor: true, second_factor_id: factorId } : {}),
      expires_at_epoch: expires,
    },
    [signInBasisCheck(accountId, basis)],
  );
  if (!stored) {
    // Which of the two, for the message: a password sign-in reads the account again (consistently).
    const changed =
      basis.password !== undefined &&
      (await getAccount(accountId, true))?.password_changed_at !== basis.password.changedAt;
    throw new UnauthorizedError(changed ? PASSWORD_CHANGED : SIGNED_OUT);
  }
  const access = await issueAccessToken(accountId, now, {
    authTime: now,
    sessionId: family,
    secondFactor,
    factorId,
  });
  return {
    auth_token: access.token,
    token_expires_at: access.expiresAt,
    refresh_token: `${family}.${secret}`,
    refresh_token_expires_at: new Date(expires * 1000).toISOString(),
  };
};

/** Exchanges a refresh token for a new pair; reuse of a rotated token revokes the family (401). */
export const rotateSession = async (token: string, now: Date): Promise<SessionTokens> => {
  const { family, secret } = parse(token);
  const item = await getRefreshFamily(family);
  if (!item || !usable(item, now)) {
    throw new UnauthorizedError('Invalid refresh token');
  }
  const presented = sha256(secret);
  if (item.current !== presented) {
    if (!(await wasRotatedSecret(family, presented))) throw new UnauthorizedError('Invalid refresh token');
    await setRefreshFamilyRevoked(family);
    throw new UnauthorizedError('Refresh token reuse detected: every session of this sign-in was revoked');
  }
  if (!(await isActiveAccount(String(item.account_id)))) throw new UnauthorizedError('Invalid refresh token');
  const next = newSecret();
  // Retired first: a rotation whose record failed would leave a token whose reuse looks like a guess.
  await putRotatedSecret(family, presented, Number(item.expires_at_epoch));
  if (!(await rotateRefreshSecret(family, { from: presented, to: sha256(next), at: now }))) {
    // Lost a race with another use of the same token: that is reuse too.
    await setRefreshFamilyRevoked(family);
    throw new UnauthorizedError('Refresh token reuse detected: every session of this sign-in was revoked');
  }
  // A refresh keeps the sign-in's auth_time (families from before it existed: their creation).
  const authTime = new Date(
    typeof item.auth_time === 'number' ? item.auth_time * 1000 : Date.parse(String(item.created_at)),
  );
  const access = await issueAccessToken(String(item.account_id), now, {
    authTime,
    sessionId: family,
    secondFactor: item.second_factor === true,
    factorId: item.second_factor_id,
  });
  return {
    auth_token: access.token,
    token_expires_at: access.expiresAt,
    refresh_token: `${family}.${next}`,
    refresh_token_expires_at: new Date(Number(item.expires_at_epoch) * 1000).toISOString(),
  };
};

export { isLiveSession } from './live-session.ts';

/**
 * Revokes family `family` if it belongs to `accountId`; false when it does not exist or is
 * another account's. Idempotent for the owner.
 */
export const revokeFamily = (accountId: string, family: string): Promise<boolean> =>
  revokeRefreshFamilyOf(accountId, family);

/** The session (family id) a refresh token names; 401 for a token not of its form. */
export const sessionOfRefreshToken = (token: string): string => parse(token).family;

/** The account's sign-ins still usable at `now` (neither revoked nor expired), newest first. */
export const listSessions = async (accountId: string, now: Date): Promise<SignInSession[]> =>
  (await refreshFamiliesOf(accountId))
    .filter((item) => usable(item, now))
    .map((item) => ({
      id: item.family,
      device: String(item.device ?? 'Unknown device'),
      created_at: String(item.created_at),
      last_used_at: String(item.last_used_at ?? item.created_at),
      expires_at: new Date(Number(item.expires_at_epoch) * 1000).toISOString(),
    }))
    .sort((a, b) => compareText(b.created_at, a.created_at));

/**
 * Revokes every usable sign-in of the account except `keep` (the caller's own, for "sign out
 * everywhere else"); the number revoked. Access tokens already issued run out within 15 minutes.
 * The account's sign-out count goes up first, then the sessions are listed: a sign-in that read
 * the account before the count stores no session after it (`issueSession`), and one stored before
 * it is in the list (in the other order, a sign-in could store its session between the two).
 */
export const revokeAllSessions = async (accountId: string, now: Date, keep?: string): Promise<number> => {
  await countSignOut(accountId);
  const sessions = (await listSessions(accountId, now)).filter((s) => s.id !== keep);
  await Promise.all(sessions.map((s) => revokeFamily(accountId, s.id)));
  return sessions.length;
};

/**
 * Records a new primary authentication (a step-up) on the caller's sign-in, and the second factor
 * `factorId` it passed (if any), so the access tokens its refreshes issue carry them; false when
 * the family is revoked or not the account's.
 */
export const renewAuthTime = async (
  accountId: string,
  family: string,
  at: Date,
  factorId?: string,
): Promise<boolean> => renewRefreshAuthTime(accountId, family, { authTime: epoch(at), factorId });

/** The refresh-token families of an account (revoked and expired ones too), without their secrets' hashes. */
export const familiesOf = async (
  accountId: string,
): Promise<Array<{ family: string; created_at: string; revoked: boolean; expires_at: string }>> =>
  (await refreshFamiliesOf(accountId)).map((item) => ({
    family: item.family,
    created_at: String(item.created_at),
    revoked: Boolean(item.revoked),
    expires_at: new Date(Number(item.expires_at_epoch) * 1000).toISOString(),
  }));
