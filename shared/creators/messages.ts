/**
 * The 403 of a studio route to an account that is not a creator yet: onboarding's steps 2 and 3
 * (a category, then an audience connected; docs/identity.md "Onboarding") make it one, seconds
 * after the last step (the projector creates the creator). Data only: the contracts name it.
 */
export const NOT_A_CREATOR_YET =
  'Finish onboarding (choose a category, then connect an audience) to use the studio; the studio opens seconds after the last step';
