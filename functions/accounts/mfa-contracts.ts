import type { Contract } from '../../shared/http/contract.ts';
import { contract } from '../../shared/http/contract.ts';
import { STEP_UP_MESSAGE } from '../../shared/errors/errors.ts';
import { noStoreHeaders as headers } from '../../shared/identity/no-store.ts';
import {
  completeMfaSignInBody,
  confirmTotpBody,
  enrolTotpBody,
  secondFactorResponses,
  signedInAfterMfa,
} from '../../shared/identity/second-factor-schemas.ts';

/**
 * The second factor (docs/accounts.md "Second factor"): TOTP enrolment, its confirmation, new
 * recovery codes and removal, and the second step of a sign-in that asks for it.
 */
const tag = 'Accounts';

export const enrolTotp = /* @__PURE__ */ contract({
  operationId: 'enrolTotp',
  tag,
  method: 'POST',
  path: '/me/mfa/totp',
  handler: 'accounts/enrol-mfa-totp',
  // GetItem: the account and its factor. PutItem: the pending factor.
  dynamo: { actions: ['GetItem', 'PutItem'] },
  needs: ['totp-encrypt'],
  auth: 'required',
  stepUp: true,
  rateLimit: { limit: 10, windowSeconds: 3600, by: 'account' },
  throttle: { rate: 5, burst: 10 },
  summary: 'Start enrolling an authenticator app (TOTP) as a second factor',
  description:
    'Makes a new TOTP secret (RFC 6238: SHA-1, 6 digits, 30 seconds) and answers it, in base32 and as an otpauth:// URI to show as a QR code. This answer is the only time the secret is shown; it is stored encrypted with KMS. The factor is not active until POST /me/mfa/totp/confirm checks a first code, within 15 minutes (enrolling again replaces an unconfirmed secret). Needs a recent sign-in (step-up). 409 when an authenticator is enrolled already.',
  request: { body: enrolTotpBody },
  responses: () => ({
    201: {
      description: 'A secret to add to the authenticator app',
      data: secondFactorResponses().TotpEnrolment,
      headers,
    },
    404: { description: "The token's account no longer exists", message: 'Account not found' },
    409: {
      description: 'An authenticator is enrolled already: remove it first',
      message:
        'A TOTP authenticator is enrolled already: remove it first (DELETE /me/mfa/totp) to enrol another',
    },
  }),
});

export const confirmTotp = /* @__PURE__ */ contract({
  operationId: 'confirmTotp',
  tag,
  method: 'POST',
  path: '/me/mfa/totp/confirm',
  handler: 'accounts/confirm-mfa-totp',
  // GetItem: the pending factor. UpdateItem: its activation; the sign-in's second factor.
  dynamo: { actions: ['GetItem', 'UpdateItem'] },
  needs: ['totp-decrypt', 'token-signer', 'one-time-codes'],
  auth: 'required',
  rateLimit: { limit: 10, windowSeconds: 900, by: 'account' },
  throttle: { rate: 5, burst: 10 },
  summary: 'Confirm the authenticator app with a first code; answers 10 recovery codes',
  description:
    'Checks a code from the authenticator app against the secret of POST /me/mfa/totp and activates the factor: from now on sign-in (password or Google) and step-up ask for its code. Answers 10 single-use recovery codes, shown this once (only their hashes are kept), and an access token of this sign-in that carries the second factor. Not a step-up route: the secret, given after a step-up, and the code are the proof.',
  request: { body: confirmTotpBody },
  responses: () => ({
    200: { description: 'Active; the recovery codes', data: secondFactorResponses().TotpConfirmed, headers },
    401: {
      description:
        "No bearer token, a malformed Authorization header, or a token that is invalid or expired; or the token's session was signed out (its access token only lapses: it confirms nothing and gets no fresh token)",
      message: 'This session was signed out: sign in again',
    },
    400: {
      description: 'The code is not the current one of the secret (or the phone’s clock is off)',
      message:
        'Incorrect code: enter the code the authenticator app shows now (check that the phone’s clock is set automatically)',
    },
    404: {
      description:
        'No enrolment to confirm: none was started, or it lapsed after 15 minutes; or the account was deleted (`Account not found`: a deleted account gets no fresh token)',
      message:
        'No TOTP enrolment to confirm (none was started, or it lapsed after 15 minutes): start one with POST /me/mfa/totp',
    },
    409: {
      description: 'The authenticator is confirmed already',
      message: 'This TOTP authenticator is confirmed already',
    },
  }),
});

export const regenerateRecoveryCodes = /* @__PURE__ */ contract({
  operationId: 'regenerateRecoveryCodes',
  tag,
  method: 'POST',
  path: '/me/mfa/totp/recovery-codes',
  handler: 'accounts/regenerate-recovery-codes',
  // GetItem: the account, the factor (the handler's step-up check and the set read), the session.
  // UpdateItem: the new set, on condition it replaces the set read. Mailer: the owner's notice.
  dynamo: { actions: ['GetItem', 'UpdateItem'] },
  needs: ['one-time-codes', 'mailer'],
  auth: 'required',
  stepUp: true,
  rateLimit: { limit: 10, windowSeconds: 3600, by: 'account' },
  throttle: { rate: 5, burst: 10 },
  summary: 'Replace the recovery codes with 10 new ones (the old ones stop working)',
  description:
    'Makes 10 new single-use recovery codes and replaces all the unused ones with them at once: the old codes no longer work. For owners who used or lost codes, and for those whose factor shows `recovery_codes_outdated: true` (codes of the kind stored before 2026-11-30). The codes are shown this once (only a keyed MAC of each is kept). Needs a recent sign-in that passed the factor (step-up with its code: POST /auth/step-up). Sent with `Cache-Control: no-store`. The account email gets a notice (as when the factor is removed). 409 when the codes changed between the read and the write (another regeneration, a code used): check GET /me and retry.',
  responses: () => ({
    200: {
      description: 'The new recovery codes, and the factor',
      data: secondFactorResponses().RecoveryCodesRenewed,
      headers,
    },
    401: {
      description:
        'No bearer token, a malformed Authorization header, or a token that is invalid or expired; or, with `reason: "step_up_required"`, a token whose sign-in is over 10 minutes old or did not pass the second factor (step up with its code: POST /auth/step-up); or the token\'s session was signed out (`This session was signed out: sign in again`: it gets no codes)',
      message: STEP_UP_MESSAGE,
    },
    404: {
      description:
        'No active second factor (none, or an enrolment not confirmed yet); or the account was deleted (`Account not found`)',
      message: 'No second factor is enrolled',
    },
    409: {
      description:
        'The recovery codes changed between the read and the write (another regeneration, a code used, the factor removed): nothing was replaced; check GET /me and retry',
      message:
        'The recovery codes changed while new ones were made (another regeneration, a code used, or the authenticator removed): check GET /me and retry',
    },
  }),
});

export const removeTotp = /* @__PURE__ */ contract({
  operationId: 'removeTotp',
  tag,
  method: 'DELETE',
  path: '/me/mfa/totp',
  handler: 'accounts/remove-mfa-totp',
  // GetItem: the account's address, for the notice of an active factor's removal.
  dynamo: { actions: ['DeleteItem', 'GetItem'] },
  needs: ['mailer'],
  auth: 'required',
  stepUp: true,
  rateLimit: { limit: 10, windowSeconds: 3600, by: 'account' },
  throttle: { rate: 5, burst: 10 },
  summary: 'Remove the authenticator app (the second factor) and its recovery codes',
  description:
    "Removes the TOTP factor, confirmed or not, with its unused recovery codes: sign-in asks for the password (or Google) only again, and the account's address gets a notice (for a confirmed factor). Needs a recent sign-in (step-up), which for an account with the factor means its code.",
  responses: () => ({
    204: { description: 'Removed' },
    404: { description: 'No second factor is enrolled', message: 'No second factor is enrolled' },
  }),
});

export const completeMfaSignIn = /* @__PURE__ */ contract({
  operationId: 'completeMfaSignIn',
  tag: 'Auth',
  method: 'POST',
  path: '/auth/mfa',
  handler: 'accounts/complete-mfa-sign-in',
  // UpdateItem: the challenge's attempt, the factor's last step or recovery codes. DeleteItem: the
  // challenge, used once. GetItem: the account and its factor. PutItem: the new sign-in.
  // ConditionCheckItem: the session is stored only while the account is as the first factor read
  // it (not signed out everywhere since; after a password, still the one checked).
  dynamo: { actions: ['ConditionCheckItem', 'DeleteItem', 'GetItem', 'PutItem', 'UpdateItem'] },
  needs: ['totp-decrypt', 'token-signer', 'one-time-codes'],
  auth: 'none',
  rateLimit: { limit: 20, windowSeconds: 60, by: 'ip' },
  throttle: { rate: 10, burst: 20 },
  summary: 'Finish a sign-in with the second factor (authenticator code or recovery code)',
  description:
    'The second step of a sign-in whose first step (POST /auth/login or POST /onboarding/account/google) answered 202 with a challenge: send the challenge token with the code the authenticator app shows (`code`) or one recovery code (`recovery_code`). A code is accepted once (a code of a time step already used is refused) and one 30-second step either side of now; each recovery code works once. The challenge lives 5 minutes and allows 5 submissions, each spending one; then sign in again. An account takes at most 10 submissions per 15 minutes across all its challenges (429 `rate_limit` with Retry-After past it), whatever the client address. Answers the account and its token pair (`Cache-Control: no-store`), whose tokens carry the second factor (`amr: ["mfa"]`).',
  request: { body: completeMfaSignInBody },
  responses: () => ({
    200: { description: 'Signed in: the account and a new token pair', data: signedInAfterMfa(), headers },
    400: {
      description:
        'The code or recovery code is wrong, or the code was used already; the message says how many attempts the challenge has left',
      message: 'Incorrect code: 4 attempts left',
    },
    401: {
      description:
        'The challenge token is unknown, expired (5 minutes), used, or out of attempts (5): sign in again; or the password it followed was changed or reset meanwhile (`The password changed while signing in: sign in again with the new one`), or the account was signed out everywhere since the first step (`This account was signed out everywhere while signing in: sign in again`)',
      message:
        'This sign-in challenge expired, was used or had too many wrong codes: sign in again (POST /auth/login)',
    },
  }),
});

export const secondFactorContracts: readonly Contract[] = [
  enrolTotp,
  confirmTotp,
  regenerateRecoveryCodes,
  removeTotp,
  completeMfaSignIn,
];
