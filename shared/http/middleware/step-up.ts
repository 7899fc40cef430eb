import { type Principal, STEP_UP_MAX_AGE_SECONDS } from '../../identity/principal.ts';
import { SecondFactorRequiredError, StepUpRequiredError } from '../../errors/errors.ts';
import { isStudioRoute } from '../../routing/route.ts';
import { type HttpMiddleware, stateOf } from './state.ts';

/**
 * Step-up for sensitive actions (docs/accounts.md, "Step-up"): reading or rotating the stream
 * key, payout onboarding, changing the plan price, changing email or password. Such a route's row
 * says `stepUp: true`; its caller's access token must carry an `auth_time` (the sign-in's last
 * primary authentication; refreshes keep it) no older than STEP_UP_MAX_AGE_SECONDS, or the answer
 * is 401 with `reason: "step_up_required"` and an RFC 9470 challenge. `POST /auth/step-up`
 * (password) issues a token that passes. A token without `auth_time` (issued before it existed)
 * never passes.
 */
export { STEP_UP_MAX_AGE_SECONDS };

/** Throws StepUpRequiredError unless `principal` authenticated within the last 10 minutes at `now`. */
export const assertRecentAuthentication = (principal: Principal, now: Date): void => {
  const age = Math.floor(now.getTime() / 1000) - (principal.authTime ?? Number.NEGATIVE_INFINITY);
  if (!(age <= STEP_UP_MAX_AGE_SECONDS)) throw new StepUpRequiredError(STEP_UP_MAX_AGE_SECONDS);
};

/**
 * The operator's `creatorSecondFactor: required` (CREATOR_SECOND_FACTOR, given to studio
 * functions): a studio route refuses a token whose sign-in (or step-up) did not pass a second
 * factor, 403 `reason: "second_factor_required"`. Read from the token (`amr`), no table read.
 */
export const assertCreatorSecondFactor = (principal: Principal): void => {
  if (process.env.CREATOR_SECOND_FACTOR === 'required' && !principal.secondFactor)
    throw new SecondFactorRequiredError();
};

/**
 * Applies the checks to rows with `stepUp: true` and to studio rows; runs after
 * `authenticate()`, which set the caller.
 */
export const stepUp = (): HttpMiddleware => ({
  before: async (request) => {
    const state = stateOf(request);
    if (!state.route || !state.principal) return;
    if (isStudioRoute(state.route)) assertCreatorSecondFactor(state.principal);
    if (state.route.stepUp) assertRecentAuthentication(state.principal, state.now);
  },
});
