import type { Contract } from '../../shared/http/contract.ts';
import { contract } from '../../shared/http/contract.ts';
import { accountResponses, updateMeBody } from '../../shared/identity/account-schemas.ts';

/**
 * The caller's own account (docs/accounts.md): profile, password recovery and changes, email
 * change, signed-in devices and step-up.
 */
const tag = 'Accounts';
const gone = { description: "The token's account no longer exists", message: 'Account not found' } as const;

export const getMe = contract({
  operationId: 'getMe',
  tag,
  method: 'GET',
  path: '/me',
  handler: 'accounts/get-me',
  dynamo: { actions: ['GetItem', 'UpdateItem'] },
  auth: 'required',
  summary: "The caller's account",
  description:
    "The signed-in account: id, email and whether it is verified, display name and handle, creator or viewer, onboarding status, the `app_account_token` to pass to the app stores' purchase APIs, how it can sign in, second factors (none can be enrolled yet) and whether a creator should be prompted to enrol one.",
  responses: () => ({
    200: { description: 'The account', data: accountResponses().Me },
    404: gone,
  }),
});

export const updateMe = contract({
  operationId: 'updateMe',
  tag,
  method: 'PATCH',
  path: '/me',
  handler: 'accounts/update-me',
  dynamo: { actions: ['DeleteItem', 'GetItem', 'PutItem', 'UpdateItem'] },
  auth: 'required',
  rateLimit: { limit: 20, windowSeconds: 3600, by: 'account' },
  summary: "Change the caller's display name or handle",
  description:
    "Changes the signed-in account's display name and/or handle. A handle is unique ignoring letter case; the old one becomes free at once. The public creator page's name is the studio's (PATCH /studio/profile).",
  request: { body: updateMeBody },
  responses: () => ({
    200: { description: 'The account after the change', data: accountResponses().Me },
    404: gone,
    409: {
      description: 'Another account holds the handle (ignoring letter case), or it changed meanwhile',
      message: 'Handle already taken',
    },
  }),
});

export const accountContracts: readonly Contract[] = [getMe, updateMe];
