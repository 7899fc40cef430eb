import type { Principal } from './principal.ts';
import { ConflictError, ForbiddenError, UnauthorizedError } from '../errors/errors.ts';
import { recordMetric } from '../observability/index.ts';
import { issueAccessToken } from './access-token.ts';
import { requireLiveAccount } from './account-repository.ts';
import type { StepUpBody, StepUpToken } from './account-schemas.ts';
import { DUMMY_PASSWORD_HASH, verifyPassword } from './password.ts';
import { renewAuthTime } from './refresh-tokens.ts';
import { stepUpSecondFactor } from './second-factor.ts';

// A module of its own: only the step-up function bundles the second factor's code checks (otpauth,
// the KMS client that decrypts TOTP secrets); the other credential routes import credentials.ts.

/**
 * `POST /auth/step-up`: checks the password (and, when the account has one, the second factor's
 * code) and issues an access token whose `auth_time` is now, and records it on the caller's
 * sign-in so its refreshes keep it. A Google-only account has no
 * password: it steps up by signing in with Google again (POST /onboarding/account/google), which
 * starts a new sign-in with a fresh `auth_time` (409 here says so).
 */
export const stepUp = async (
  caller: Principal,
  { password, ...proof }: StepUpBody,
  now: Date,
): Promise<StepUpToken> => {
  const account = await requireLiveAccount(caller.accountId);
  const valid = await verifyPassword(password, account.password_hash ?? DUMMY_PASSWORD_HASH);
  if (!account.password_hash) {
    throw new ConflictError(
      'This account signs in with Google and has no password: sign in with Google again (POST /onboarding/account/google) for a fresh token',
    );
  }
  if (!valid) throw new ForbiddenError('Password is incorrect');
  // With a second factor enrolled, its code too (docs/accounts.md "Second factor").
  const factorId = await stepUpSecondFactor(caller.accountId, proof, now);
  if (caller.sessionId && !(await renewAuthTime(caller.accountId, caller.sessionId, now, factorId))) {
    throw new UnauthorizedError('This session was signed out: sign in again');
  }
  // Without an active factor the token keeps what it passed before (the id of a factor since
  // removed counts for no later one: factor-passed.ts).
  const access = await issueAccessToken(caller.accountId, now, {
    authTime: now,
    sessionId: caller.sessionId,
    secondFactor: factorId !== undefined || caller.secondFactor,
    factorId: factorId ?? caller.secondFactorId,
  });
  recordMetric('step_ups');
  return { auth_token: access.token, token_expires_at: access.expiresAt, auth_time: now.toISOString() };
};
