import type { Contract } from '../../shared/http/contract.ts';
import { contract } from '../../shared/http/contract.ts';
import {
  accountResponses,
  changeEmailBody,
  changePasswordBody,
  confirmEmailChangeBody,
  forgotPasswordBody,
  resetPasswordBody,
  sessionPath,
  stepUpBody,
  updateMeBody,
} from '../../shared/identity/account-schemas.ts';
import { noStoreHeaders as headers } from '../../shared/identity/no-store.ts';
import { accountDataResponses, deleteAccountBody } from '../../shared/accounts/schemas.ts';

/**
 * The caller's own account (docs/accounts.md): profile, password recovery and changes, email
 * change, signed-in devices and step-up; the account's export and deletion.
 */
const tag = 'Accounts';
/** Routes that hash or check a password: sized like sign-in (functions/identity/contracts.ts). */
const hashes = {
  memory: { mb: 1769, reason: 'scrypt: ~210 MB peak RSS per hash, CPU-bound (one vCPU at 1,769 MB)' },
} as const;
const noPassword = {
  description:
    'The account signs in with Google only and has no password: set one through POST /auth/password/forgot',
  message: 'This account signs in with Google and has no password: set one with POST /auth/password/forgot',
} as const;
const wrongPassword = {
  description: 'The current password is wrong',
  message: 'current_password is incorrect',
} as const;
const gone = { description: "The token's account no longer exists", message: 'Account not found' } as const;
/** A credential route: a deleted account's still-valid access token changes nothing. */
const goneOrDeleted = {
  description:
    "The token's account no longer exists, or was deleted (its purge pending): a deleted account changes no credential, and its addresses wait out their quarantine",
  message: 'Account not found',
} as const;

export const getMe = /* @__PURE__ */ contract({
  operationId: 'getMe',
  tag,
  method: 'GET',
  path: '/me',
  handler: 'accounts/get-me',
  // UpdateItem and PutItem: the app_account_token and its marker, made once for older accounts.
  dynamo: { actions: ['GetItem', 'PutItem', 'UpdateItem'] },
  needs: ['second-factor-policy'],
  auth: 'required',
  summary: "The caller's account",
  description:
    "The signed-in account: id, email and whether it is verified, display name and handle, creator or viewer, onboarding status, the `app_account_token` to pass to the app stores' purchase APIs, how it can sign in, its second factors, whether a creator should be prompted to enrol one and whether the operator requires creators to.",
  responses: () => ({
    200: { description: 'The account', data: accountResponses().Me },
    404: gone,
  }),
});

export const updateMe = /* @__PURE__ */ contract({
  operationId: 'updateMe',
  tag,
  method: 'PATCH',
  path: '/me',
  handler: 'accounts/update-me',
  dynamo: { actions: ['DeleteItem', 'GetItem', 'PutItem', 'UpdateItem'] },
  needs: ['second-factor-policy'],
  auth: 'required',
  rateLimit: { limit: 20, windowSeconds: 3600, by: 'account' },
  throttle: { rate: 10, burst: 20 },
  summary: "Change the caller's display name or handle",
  description:
    "Changes the signed-in account's display name and/or handle. A handle is unique ignoring letter case; the old one becomes free at once. The public creator page's name is the studio's (PATCH /studio/profile).",
  request: { body: updateMeBody },
  responses: () => ({
    200: { description: 'The account after the change', data: accountResponses().Me },
    404: goneOrDeleted,
    409: {
      description: 'Another account holds the handle (ignoring letter case), or it changed meanwhile',
      message: 'Handle already taken',
    },
  }),
});

export const forgotPassword = /* @__PURE__ */ contract({
  operationId: 'forgotPassword',
  tag,
  method: 'POST',
  path: '/auth/password/forgot',
  handler: 'accounts/forgot-password',
  // Only queues the work (the account jobs worker looks the address up, stores and mails the
  // code): the same call for every address. UpdateItem: the rate limit.
  needs: ['account-jobs'],
  auth: 'none',
  rateLimit: { limit: 10, windowSeconds: 3600, by: 'ip' },
  throttle: { rate: 10, burst: 20 },
  summary: 'Ask for a password-reset code by email',
  description:
    'Mails an 8-digit code that resets the password of the account using this address (also how a Google-only account sets a password). The answer is the same 202, with the same body, whether or not an account uses the address, and it does the same work for every address (it queues the request; the code is stored and mailed after the answer), so neither it nor its time reveals anything. The code is valid 15 minutes and once, locks after 5 wrong tries; at most 3 are mailed a day per address (the others are silently dropped); 10 requests an hour per client address.',
  request: { body: forgotPasswordBody },
  responses: () => ({
    202: { description: 'Taken (for every address)', data: accountResponses().ResetRequested },
  }),
});

export const resetPassword = /* @__PURE__ */ (() =>
  contract({
    operationId: 'resetPassword',
    tag,
    method: 'POST',
    path: '/auth/password/reset',
    handler: 'accounts/reset-password',
    // Query (consistent) and BatchGetItem: the account's sign-ins (shared/identity/refresh-family-repository.ts);
    // GSI1: those stored before the account listed them (until they expire).
    // SendMessage: the account's chat connections end with its sessions (signOutEverywhere queues the passes).
    dynamo: {
      actions: ['BatchGetItem', 'DeleteItem', 'GetItem', 'Query', 'UpdateItem'],
      indexes: ['GSI1'],
    },
    needs: ['one-time-codes', 'account-jobs'],
    ...hashes,
    auth: 'none',
    rateLimit: { limit: 10, windowSeconds: 60, by: 'ip' },
    throttle: { rate: 10, burst: 20 },
    summary: 'Set a new password with the emailed code; signs out everywhere',
    description:
      "Sets the account's password with the code from POST /auth/password/forgot (which also marks the address verified), then revokes every session of the account (all its refresh tokens), ends its open watch sessions and its open live chat connections. Sign in again afterwards. Every submission spends one of the code's 5 attempts. The answers reveal nothing about the address: one no account uses is answered exactly as a registered one with a wrong code (400 with the attempts left after a forgot-password request, then 410).",
    request: { body: resetPasswordBody },
    responses: () => ({
      204: { description: 'The password was changed and every session signed out' },
      400: {
        description:
          'The code is wrong (or no account uses the address and forgot-password was asked for it); the message says how many attempts are left',
        message: 'Incorrect reset code: 4 attempts left',
      },
      410: {
        description:
          'No usable code for this address: none was sent, it expired, was used or locked after 5 wrong tries (for an address no account uses, the same as for a registered one)',
        message:
          'No valid reset code: it expired, was already used or had too many wrong attempts; request a new one (POST /auth/password/forgot)',
      },
    }),
  }))();

export const stepUp = /* @__PURE__ */ (() =>
  contract({
    operationId: 'stepUp',
    tag,
    method: 'POST',
    path: '/auth/step-up',
    handler: 'accounts/step-up',
    dynamo: { actions: ['GetItem', 'UpdateItem'] },
    ...hashes,
    auth: 'required',
    needs: ['token-signer', 'totp-decrypt', 'one-time-codes'],
    rateLimit: { limit: 10, windowSeconds: 900, by: 'account' },
    throttle: { rate: 10, burst: 20 },
    summary: 'Confirm the password (and second factor) for a fresh access token (sensitive actions)',
    description:
      "Checks the caller's password and, when the account has a second factor, the code from the authenticator app (`code`) or a recovery code, and answers a fresh access token whose `auth_time` is now: sensitive actions (the stream key, payouts, the plan price, email and password changes, the second factor, deleting the account) accept it for 10 minutes, and the sign-in's refreshes keep it. A Google-only account has no password: it signs in with Google again (POST /onboarding/account/google) instead, which gives a fresh token too.",
    request: { body: stepUpBody },
    responses: () => ({
      200: { description: 'A fresh access token', data: accountResponses().StepUpToken, headers },
      403: {
        description:
          'The password is wrong; or the account has a second factor and no code was sent, the code is wrong, or it was used already (a code works once)',
        message: 'Password is incorrect',
      },
      404: {
        description:
          "The token's account no longer exists, or was deleted (its purge pending): a deleted account gets no fresh token",
        message: 'Account not found',
      },
      409: {
        description: 'The account signs in with Google only: sign in with Google again instead',
        message:
          'This account signs in with Google and has no password: sign in with Google again (POST /onboarding/account/google) for a fresh token',
      },
    }),
  }))();

export const changePassword = /* @__PURE__ */ (() =>
  contract({
    operationId: 'changePassword',
    tag,
    method: 'POST',
    path: '/me/password',
    handler: 'accounts/change-password',
    // DeleteItem: a pending password-reset code, which the change ends.
    // Query (consistent) and BatchGetItem: the account's sign-ins (shared/identity/refresh-family-repository.ts);
    // GSI1: those stored before the account listed them (until they expire). SendMessage: the
    // account's chat connections end with its other sessions (signOutEverywhere queues the passes).
    dynamo: { actions: ['BatchGetItem', 'DeleteItem', 'GetItem', 'Query', 'UpdateItem'], indexes: ['GSI1'] },
    needs: ['mailer', 'account-jobs'],
    ...hashes,
    auth: 'required',
    stepUp: true,
    rateLimit: { limit: 10, windowSeconds: 3600, by: 'account' },
    throttle: { rate: 10, burst: 20 },
    summary: "Change the caller's password; signs out their other devices",
    description:
      'Changes the password (the current one is checked; the new one may not be a common password) and signs out every other session of the account; the caller stays signed in. Every open live chat connection of the account ends (IVS Chat disconnects an account, not a device: the caller’s own chat asks for a new token). A notice is mailed to the address. Needs a recent sign-in (step-up).',
    request: { body: changePasswordBody },
    responses: () => ({
      200: {
        description: 'Changed; how many other sessions were signed out',
        data: accountResponses().SessionsRevoked,
      },
      403: wrongPassword,
      404: goneOrDeleted,
      409: noPassword,
    }),
  }))();

export const changeEmail = /* @__PURE__ */ (() =>
  contract({
    operationId: 'changeEmail',
    tag,
    method: 'POST',
    path: '/me/email',
    handler: 'accounts/change-email',
    dynamo: { actions: ['GetItem', 'PutItem'] },
    needs: ['mailer', 'one-time-codes'],
    ...hashes,
    auth: 'required',
    stepUp: true,
    rateLimit: { limit: 5, windowSeconds: 86_400, by: 'account' },
    throttle: { rate: 10, burst: 20 },
    summary: "Start changing the caller's email: a code goes to the new address",
    description:
      'Checks the current password and that no account uses the new address, then mails a 6-digit code to it (15 minutes, 5 attempts, replacing an earlier one). The address changes only when POST /me/email/verify confirms the code. Needs a recent sign-in (step-up); 5 a day per account.',
    request: { body: changeEmailBody },
    responses: () => ({
      200: {
        description: 'A code was mailed to the new address',
        data: accountResponses().EmailChangeStarted,
      },
      403: wrongPassword,
      404: goneOrDeleted,
      409: {
        description:
          'The new address is already registered (or is the current one), or the account has no password (Google only: set one through POST /auth/password/forgot)',
        message: 'Email already registered',
      },
    }),
  }))();

export const requestAccountExport = /* @__PURE__ */ contract({
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
    202: { description: 'The export is being built', data: accountDataResponses().AccountExport },
    409: {
      description: 'An export of this account is being built already; wait for it (GET /me/export)',
      message: 'An export of this account is being built',
    },
  }),
});

export const confirmEmailChange = /* @__PURE__ */ contract({
  operationId: 'confirmEmailChange',
  tag,
  method: 'POST',
  path: '/me/email/verify',
  handler: 'accounts/confirm-email-change',
  dynamo: { actions: ['DeleteItem', 'GetItem', 'PutItem', 'UpdateItem'] },
  needs: ['mailer', 'one-time-codes'],
  auth: 'required',
  rateLimit: { limit: 10, windowSeconds: 60, by: 'account' },
  throttle: { rate: 10, burst: 20 },
  summary: 'Confirm the new email with the code sent to it',
  description:
    'Moves the account to the new address with the code mailed to it by POST /me/email (which proves it: the address is verified), and mails a notice to the old address. Every submission spends one of the 5 attempts.',
  request: { body: confirmEmailChangeBody },
  responses: () => ({
    200: { description: 'The address changed', data: accountResponses().EmailChanged },
    400: {
      description: 'The code is wrong; the message says how many attempts are left',
      message: 'Incorrect verification code: 4 attempts left',
    },
    404: goneOrDeleted,
    409: {
      description: 'Another account took the new address meanwhile',
      message: 'Email already registered',
    },
    410: {
      description: 'No usable code: none was sent, it expired, was used or had 5 wrong tries',
      message:
        'No valid verification code: it expired, was already used or had too many wrong attempts; request a new one (POST /me/email)',
    },
  }),
});

export const listMySessions = /* @__PURE__ */ contract({
  operationId: 'listMySessions',
  tag,
  method: 'GET',
  path: '/me/sessions',
  handler: 'accounts/list-sessions',
  // Query (consistent) and BatchGetItem: the account's sign-ins (shared/identity/refresh-family-repository.ts);
  // GSI1: those stored before the account listed them (until they expire).
  dynamo: { actions: ['BatchGetItem', 'Query'], indexes: ['GSI1'] },
  auth: 'required',
  summary: "The caller's signed-in devices",
  description:
    'Every session of the account that can still refresh (one per sign-in, with every token refreshed from it): its device (from the User-Agent at sign-in), when it signed in and was last refreshed, when it ends, and which one is making this request.',
  responses: () => ({
    200: { description: 'The sessions, newest first', data: accountResponses().Sessions },
  }),
});

export const signOutSession = /* @__PURE__ */ contract({
  operationId: 'signOutSession',
  tag,
  method: 'DELETE',
  path: '/me/sessions/{id}',
  handler: 'accounts/sign-out-session',
  // UpdateItem: the family revoked, and the account's chat-pass budget counted (no request budget:
  // a sign-out is never refused). SendMessage: the session's chat connections end
  // (endChatConnections queues the passes).
  dynamo: { actions: ['UpdateItem'] },
  needs: ['account-jobs'],
  auth: 'required',
  summary: 'Sign out one of the caller’s sessions',
  description:
    'Revokes one session of the caller (its refresh token stops working; access tokens it issued lapse within 15 minutes, and get no live chat token meanwhile). Its open live chat connections end (IVS Chat disconnects an account, not a device: the caller’s own connection in the same room ends too and asks for a new token); with `DELETE /me/sessions` and `POST /auth/logout`, at most 20 times an hour per account (past that the session is still signed out, and its access tokens get no chat token, but open connections are not ended). Idempotent for the caller’s own sessions.',
  request: { path: sessionPath },
  responses: () => ({
    204: { description: 'Signed out' },
    404: { description: 'No session of the caller has this id', message: 'Session not found' },
  }),
});

export const signOutOtherSessions = /* @__PURE__ */ contract({
  operationId: 'signOutOtherSessions',
  tag,
  method: 'DELETE',
  path: '/me/sessions',
  handler: 'accounts/sign-out-other-sessions',
  // Query (consistent) and BatchGetItem: the account's sign-ins (shared/identity/refresh-family-repository.ts);
  // GSI1: those stored before the account listed them (until they expire). UpdateItem: each revoked.
  // SendMessage: the account's chat connections end with its other sessions (signOutEverywhere
  // queues the passes within the account's budget, an UpdateItem; docs/chat.md).
  dynamo: { actions: ['BatchGetItem', 'Query', 'UpdateItem'], indexes: ['GSI1'] },
  needs: ['account-jobs'],
  auth: 'required',
  summary: 'Sign out every other session of the caller',
  description:
    "Revokes every session of the account except the one making the request (sign out everywhere else); access tokens they issued lapse within 15 minutes, and get no live chat token meanwhile. Every open live chat connection of the account ends (IVS Chat disconnects an account, not a device: the caller's own chat asks for a new token); with `DELETE /me/sessions/{id}` and `POST /auth/logout`, at most 20 times an hour per account (past that the sessions are still signed out, and their access tokens get no chat token, but open connections are not ended).",
  responses: () => ({
    200: { description: 'How many sessions were signed out', data: accountResponses().SessionsRevoked },
  }),
});

export const getAccountExport = /* @__PURE__ */ contract({
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
    200: { description: 'The export', data: accountDataResponses().AccountExport, headers },
    404: {
      description: 'No export of this account was requested',
      message: 'No export of this account was requested',
    },
  }),
});

export const deleteMyAccount = /* @__PURE__ */ contract({
  operationId: 'deleteMyAccount',
  method: 'DELETE',
  path: '/me',
  handler: 'accounts/delete-account',
  // GetItem: the account (its handle and email, for the confirmation). UpdateItem: the tombstone.
  // SendMessage: the purge, and the passes that end its open chat connections (docs/chat.md
  // "Ending an account's connections").
  dynamo: { actions: ['GetItem', 'UpdateItem'] },
  needs: ['account-jobs'],
  auth: 'required',
  stepUp: true,
  rateLimit: { limit: 10, windowSeconds: 3600, by: 'account' },
  throttle: { rate: 5, burst: 10 },
  tag,
  summary: "Delete the caller's account and everything it holds",
  description:
    "Deletes the caller's account (GDPR article 17; the app stores' in-app deletion). Needs a recent sign-in (step-up), and the body confirms it: `confirm` is the account's handle or email. From this answer on, sign-in and refresh refuse the account and its open live chat connections are ended (within seconds); access tokens already issued expire within 15 minutes, and then every item of the account is purged (by `purge_by`): follows, reactions (their counts go down), entitlements (paid subscriptions are cancelled with Stripe now, no refund of the running period), watch history, reports, webhook subscriptions, sign-ins, exports. Analytics events keep only a keyed hash of the account id. The email and handle stay reserved for 30 days. An `account.deleted` event is published. Repeating the request (with a still-valid token) answers the same.",
  request: { body: deleteAccountBody },
  responses: () => ({
    202: {
      description: 'The account is deleted; its data is being purged',
      data: accountDataResponses().AccountDeletion,
    },
    404: { description: 'The account is gone already', message: 'Account not found' },
    409: {
      description: 'The account changed while it was being deleted; retry',
      message: 'The account changed meanwhile; retry',
    },
  }),
});

export const accountContracts: readonly Contract[] = [
  getMe,
  updateMe,
  forgotPassword,
  resetPassword,
  stepUp,
  changePassword,
  changeEmail,
  confirmEmailChange,
  listMySessions,
  signOutSession,
  signOutOtherSessions,
  requestAccountExport,
  getAccountExport,
  deleteMyAccount,
];
