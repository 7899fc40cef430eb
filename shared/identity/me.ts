import { isCreatorAccount } from './creator-from-account.ts';
import { NotFoundError } from '../errors/errors.ts';
import type { Me, UpdateMeBody } from './account-schemas.ts';
import {
  type Account,
  ensureAppAccountToken,
  getAccount,
  isEmailVerified,
  setDisplayName,
  setHandle,
} from './account-repository.ts';
import { handleUrl } from './onboarding.ts';
import type { SecondFactorView } from './second-factor-schemas.ts';
import { creatorsMustUseSecondFactor, secondFactorsOf } from './second-factor-view.ts';

/**
 * `GET /me` and `PATCH /me` (docs/accounts.md): the caller's own account, with its confirmed
 * second factors; `second_factor_prompt` is true for a creator without one (the apps show the
 * enrolment prompt) and `second_factor_required` when the operator makes one mandatory for
 * creators (the studio then refuses them without it).
 */
export const meView = (
  account: Account & { app_account_token: string },
  secondFactors: SecondFactorView[],
): Me => {
  const role = isCreatorAccount(account) ? 'creator' : 'viewer';
  const creatorWithout = role === 'creator' && secondFactors.length === 0;
  return {
    account_id: account.account_id,
    email: account.email,
    email_verified: isEmailVerified(account),
    creator_name: account.creator_name,
    handle: account.handle,
    handle_url: account.handle ? handleUrl(account.handle) : null,
    role,
    user_status: account.user_status,
    app_account_token: account.app_account_token,
    sign_in_methods: [
      ...(account.password_hash ? (['password'] as const) : []),
      ...(account.google_sub ? (['google'] as const) : []),
    ],
    second_factors: secondFactors,
    second_factor_prompt: creatorWithout,
    second_factor_required: role === 'creator' && creatorsMustUseSecondFactor(),
    created_at: account.created_at,
  };
};

/** `GET /me`: 404 when the token's account no longer exists. */
export const getMe = async (accountId: string): Promise<Me> => {
  const account = await getAccount(accountId);
  if (!account) throw new NotFoundError('Account not found');
  const [withToken, factors] = await Promise.all([
    ensureAppAccountToken(account),
    secondFactorsOf(accountId),
  ]);
  return meView({ ...withToken, app_account_token: withToken.app_account_token! }, factors);
};

/**
 * `PATCH /me`: display name and handle, under the onboarding rules (a handle is unique ignoring
 * letter case; the old one becomes free at once: account-repository `setHandle`).
 */
export const updateMe = async (accountId: string, body: UpdateMeBody): Promise<Me> => {
  if (body.handle !== undefined) await setHandle(accountId, body.handle);
  if (body.creator_name !== undefined) await setDisplayName(accountId, body.creator_name);
  return getMe(accountId);
};
