import { isCreatorAccount } from '../creators/creator-from-account.ts';
import { NotFoundError } from '../http/errors.ts';
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

/**
 * `GET /me` and `PATCH /me` (docs/accounts.md): the caller's own account. Second factors cannot
 * be enrolled yet (issue 38 item 5 leaves TOTP for later), so `second_factors` is empty and
 * `second_factor_prompt` is true for every creator: the apps show the enrolment prompt once
 * enrolment exists.
 */
export const meView = (account: Account & { app_account_token: string }): Me => {
  const role = isCreatorAccount(account) ? 'creator' : 'viewer';
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
    second_factors: [],
    second_factor_prompt: role === 'creator',
    created_at: account.created_at,
  };
};

/** `GET /me`: 404 when the token's account no longer exists. */
export const getMe = async (accountId: string): Promise<Me> => {
  const account = await getAccount(accountId);
  if (!account) throw new NotFoundError('Account not found');
  const withToken = await ensureAppAccountToken(account);
  return meView({ ...withToken, app_account_token: withToken.app_account_token! });
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
