import { StepUpRequiredError } from '../errors/errors.ts';
import { type Principal, STEP_UP_MAX_AGE_SECONDS } from './principal.ts';
import { getTotpFactor } from './second-factor-repository.ts';

/**
 * For the routes with step-up (changing the password or the email, deleting the account, the
 * stream key, payout onboarding, the subscription price; test/architecture/step-up-factor.test.ts
 * holds every step-up route to it):
 * an account with an active second factor steps up with its code (docs/accounts.md "Tokens and
 * step-up"), yet the step-up middleware reads only the token, and a sign-in from the minutes
 * before the enrolment has a recent `auth_time` without `amr: ["mfa"]`. Such a token is refused
 * here, 401 `step_up_required`, after one read of the factor (none for a token with `amr`).
 * Found by the outside probe of 2026-11-30: `POST /me/password` with the sign-up's token after the
 * factor was confirmed answered 200.
 */
export const assertFactorPassed = async (caller: Principal): Promise<void> => {
  if (caller.secondFactor) return;
  if ((await getTotpFactor(caller.accountId))?.state === 'active')
    throw new StepUpRequiredError(STEP_UP_MAX_AGE_SECONDS);
};

/**
 * `read`, a read the route makes anyway, beside `assertFactorPassed` in one phase (no extra round
 * trip); the factor's 401 comes before the read's own refusal. Never for a write: a refused
 * caller must change nothing.
 */
export const readWithFactorPassed = async <T>(caller: Principal, read: Promise<T>): Promise<T> => {
  const [factor, value] = await Promise.allSettled([assertFactorPassed(caller), read]);
  if (factor.status === 'rejected') throw factor.reason;
  if (value.status === 'rejected') throw value.reason;
  return value.value;
};
