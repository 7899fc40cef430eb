import { StepUpRequiredError } from '../errors/errors.ts';
import { requireLiveSession } from './live-session.ts';
import { type Principal, STEP_UP_MAX_AGE_SECONDS } from './principal.ts';
import { getTotpFactor } from './second-factor-repository.ts';

/**
 * The gate of the routes with step-up (changing the password or the email, deleting the account,
 * the recovery codes, the stream key, payout onboarding, the subscription price;
 * test/accounts/second-factor-policy.test.ts holds every step-up route to it), beyond the step-up
 * middleware, which reads only the token:
 * - the token's session must still be signed in (one consistent read; 401 `This session was
 *   signed out`): a session signed out with POST /auth/logout or DELETE /me/sessions/{id} keeps
 *   its access token up to 15 minutes, with a recent `auth_time` (until 2026-12-01 the studio and
 *   payout routes accepted it: test/accounts/signed-out-session.int.test.ts);
 * - an account with an active second factor steps up with its code (docs/accounts.md "Tokens and
 *   step-up"), and a sign-in from the minutes before the enrolment has a recent `auth_time`
 *   without `amr: ["mfa"]`: such a token is refused, 401 `step_up_required` (found by the outside
 *   probe of 2026-11-30: `POST /me/password` with the sign-up's token after the factor was
 *   confirmed answered 200). So is a token that passed another factor (`mfa_factor`, its id): one
 *   the owner removed and replaced since (until 2026-12-01 any `amr` passed).
 * The two reads run side by side.
 */
export const assertFactorPassed = async (caller: Principal, now: Date): Promise<void> => {
  const [session, factor] = await Promise.allSettled([
    requireLiveSession(caller, now),
    getTotpFactor(caller.accountId),
  ]);
  if (session.status === 'rejected') throw session.reason;
  if (factor.status === 'rejected') throw factor.reason;
  const active = factor.value?.state === 'active' ? factor.value : undefined;
  if (active && active.factor_id !== caller.secondFactorId)
    throw new StepUpRequiredError(STEP_UP_MAX_AGE_SECONDS);
};

/**
 * `read`, a read the route makes anyway, beside `assertFactorPassed` in one phase (no extra round
 * trip); the gate's 401 comes before the read's own refusal. Never for a write: a refused
 * caller must change nothing.
 */
export const readWithFactorPassed = async <T>(caller: Principal, now: Date, read: Promise<T>): Promise<T> => {
  const [factor, value] = await Promise.allSettled([assertFactorPassed(caller, now), read]);
  if (factor.status === 'rejected') throw factor.reason;
  if (value.status === 'rejected') throw value.reason;
  return value.value;
};
