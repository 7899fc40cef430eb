import { contract } from '../../shared/http/contract.ts';
import { accountResponses, deleteAccountBody } from '../../shared/accounts/schemas.ts';
import { noStoreHeaders } from '../../shared/identity/no-store.ts';

const tag = 'Accounts';

export const requestAccountExport = contract({
  operationId: 'requestAccountExport',
  method: 'POST',
  path: '/me/export',
  handler: 'accounts/request-export',
  // PutItem: the pending export, on condition that none is pending. DeleteItem: it again, when
  // its job could not be queued (503).
  dynamo: { actions: ['PutItem', 'DeleteItem'] },
  needs: ['account-jobs'],
  auth: 'required',
  rateLimit: { limit: 5, windowSeconds: 86_400, by: 'account' },
  throttle: { rate: 5, burst: 10 },
  tag,
  summary: 'Start an export of everything the platform keeps about the caller',
  description:
    "Starts building one JSON document with everything the platform keeps about the caller's account (profile, follows, entitlements and payments, reactions, reports, watch history and continue watching, webhook subscriptions without secrets, sign-ins; schema: docs/export.schema.json). Answers 202 at once; `GET /me/export` tells when it is ready and gives a download URL. One export at a time (409 while one is being built). GDPR articles 15 and 20.",
  responses: () => ({
    202: { description: 'The export is being built', data: accountResponses().AccountExport },
    409: {
      description: 'An export of this account is being built already; wait for it (GET /me/export)',
      message: 'An export of this account is being built',
    },
  }),
});

export const getAccountExport = contract({
  operationId: 'getAccountExport',
  method: 'GET',
  path: '/me/export',
  handler: 'accounts/get-export',
  dynamo: { actions: ['GetItem'] },
  needs: ['exports-reader'],
  auth: 'required',
  tag,
  summary: "The caller's latest export: its status and, when ready, a download URL (valid one hour)",
  description:
    "The latest export of the caller's account. While `pending`, poll (every few seconds); once `ready`, `url` downloads the document for an hour from this answer (ask again for a fresh URL; the document itself is kept a day). `failed`: start another.",
  responses: () => ({
    200: { description: 'The export', data: accountResponses().AccountExport, headers: noStoreHeaders },
    404: {
      description: 'No export of this account was requested',
      message: 'No export of this account was requested',
    },
  }),
});

export const deleteMyAccount = contract({
  operationId: 'deleteMyAccount',
  method: 'DELETE',
  path: '/me',
  handler: 'accounts/delete-account',
  // GetItem: the account (its handle and email, for the confirmation). UpdateItem: the tombstone.
  dynamo: { actions: ['GetItem', 'UpdateItem'] },
  needs: ['account-jobs'],
  auth: 'required',
  rateLimit: { limit: 10, windowSeconds: 3600, by: 'account' },
  throttle: { rate: 5, burst: 10 },
  tag,
  summary: "Delete the caller's account and everything it holds",
  description:
    "Deletes the caller's account (GDPR article 17; the app stores' in-app deletion). The body confirms it: `confirm` is the account's handle or email. From this answer on, sign-in and refresh refuse the account; access tokens already issued expire within 15 minutes, and then every item of the account is purged (by `purge_by`): follows, reactions (their counts go down), entitlements (paid subscriptions are cancelled with Stripe now, no refund of the running period), watch history, reports, webhook subscriptions, sign-ins, exports. Analytics events keep only a keyed hash of the account id. The email and handle stay reserved for 30 days. An `account.deleted` event is published. Repeating the request (with a still-valid token) answers the same.",
  request: { body: deleteAccountBody },
  responses: () => ({
    202: {
      description: 'The account is deleted; its data is being purged',
      data: accountResponses().AccountDeletion,
    },
    404: { description: 'The account is gone already', message: 'Account not found' },
    409: {
      description: 'The account changed while it was being deleted; retry',
      message: 'The account changed meanwhile; retry',
    },
  }),
});

export const accountContracts = [requestAccountExport, getAccountExport, deleteMyAccount] as const;
