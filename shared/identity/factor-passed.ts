import { StepUpRequiredError } from '../errors/errors.ts';
import { type Principal, STEP_UP_MAX_AGE_SECONDS } from './principal.ts';
import { getTotpFactor } from './second-factor-repository.ts';

/**
 * For the account routes with step-up (changing the password or the email, deleting the account):
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
