import { contract } from '../../shared/http/contract.ts';
import { noStoreHeaders as headers } from '../../shared/identity/no-store.ts';
import { secondFactorResponses } from '../../shared/identity/second-factor-schemas.ts';
import {
  categoryBody,
  checkEmailQuery,
  checkHandleQuery,
  claimHandleBody,
  createAccountBody,
  googleSignInBody,
  loginBody,
  refreshBody,
  socialConnectBody,
  verifyEmailBody,
  identityResponses,
} from '../../shared/identity/schemas.ts';

const onboarding = { tag: 'Onboarding' } as const;
const auth = { tag: 'Auth' } as const;
/**
 * Password hashing (scrypt N=2^17, r=8: 128 MiB of working memory) peaks at about 210 MB RSS in
 * the bundled function, and is CPU-bound: Lambda gives one full vCPU at 1,769 MB, so a hash takes
 * the same ~0.5 s as on a laptop core instead of ~3.5 s at 256 MB, for about the same GB-seconds.
 */
const hashes = {
  memory: { mb: 1769, reason: 'scrypt: ~210 MB peak RSS per hash, CPU-bound (one vCPU at 1,769 MB)' },
} as const;
/**
 * Two guards on the abusable routes: a per-client budget counted in the table (429 `rate_limit`
 * with Retry-After), and an API Gateway cap on the route as a whole (requests per second, burst)
 * that sheds a flood from many addresses before it reaches Lambda.
 */
const guard = (limit: number, rate: number) =>
  ({ rateLimit: { limit, windowSeconds: 60, by: 'ip' }, throttle: { rate, burst: rate * 2 } }) as const;

export const createAccount = /* @__PURE__ */ (() =>
  contract({
    operationId: 'createAccount',
    ...onboarding,
    method: 'POST',
    path: '/onboarding/account/create',
    handler: 'identity/create-account',
    // ConditionCheckItem: the first session is stored only while the account was not signed out
    // everywhere meanwhile (shared/identity/refresh-tokens.ts).
    dynamo: { actions: ['ConditionCheckItem', 'PutItem', 'UpdateItem'] },
    ...hashes,
    auth: 'none',
    needs: ['token-signer', 'mailer', 'one-time-codes'],
    ...guard(10, 10),
    summary: 'Step 1: create a creator account with email and password',
    description:
      'Onboarding step 1: creates a creator account from an email, a password and a handle, and signs it in. The email starts unverified: a 6-digit code is mailed to it (POST /auth/email/verify). Email and handle are unique ignoring letter case; the tokens come with `Cache-Control: no-store`.',
    request: { body: createAccountBody },
    responses: () => ({
      201: {
        description:
          'The account was created and signed in: account fields, a token pair and onboarding progress',
        data: identityResponses().SignedUpAccount,
        headers,
      },
      401: {
        description:
          'The account was created, but signed out everywhere (a password reset with a code mailed to the address) before its first session was stored: sign in',
        message: 'This account was signed out everywhere while signing in: sign in again',
      },
      409: {
        description: 'The email is already registered, or the handle is taken (both ignoring letter case)',
        message: 'Email already registered',
      },
    }),
  }))();

export const signInWithGoogle = /* @__PURE__ */ (() =>
  contract({
    operationId: 'signInWithGoogle',
    ...onboarding,
    method: 'POST',
    path: '/onboarding/account/google',
    handler: 'identity/sign-in-with-google',
    // ConditionCheckItem: the session is stored only while the account was not signed out
    // everywhere since it was read (shared/identity/refresh-tokens.ts).
    dynamo: { actions: ['ConditionCheckItem', 'GetItem', 'PutItem', 'UpdateItem'] },
    auth: 'none',
    needs: ['token-signer'],
    ...guard(20, 10),
    summary: 'Step 1: sign up or sign in with a Google ID token',
    description:
      'Onboarding step 1 with Google: verifies a Google ID token and signs its account in (200), or creates one (201, `handle` required, email already verified). An existing password account with the same address is linked only if its email is verified. The tokens come with `Cache-Control: no-store`. An existing account with a second factor gets 202 with a challenge instead of tokens: send it with the authenticator code to POST /auth/mfa.',
    request: { body: googleSignInBody },
    responses: () => ({
      200: {
        description: 'An existing account was signed in (`is_new_account` false)',
        data: identityResponses().GoogleSignIn,
        headers,
      },
      201: {
        description:
          'A new account was created and signed in (`is_new_account` true, with onboarding progress)',
        data: identityResponses().GoogleSignUp,
        headers,
      },
      202: {
        description:
          'An existing account with a second factor: no tokens yet; finish with POST /auth/mfa within 5 minutes',
        data: secondFactorResponses().MfaChallenge,
        headers,
      },
      401: {
        description:
          'The Google token is invalid or expired, or Google did not verify its email; or the account was signed out everywhere while this sign-in was under way (`This account was signed out everywhere while signing in: sign in again`)',
        message: 'Invalid or expired Google token',
      },
      409: {
        description:
          'An account with this email is unverified or linked to another Google account, or the handle (or email) was taken meanwhile',
        message:
          'An account with this email exists but its email is not verified: sign in with its password and verify the email (POST /auth/email/verify) before signing in with Google',
      },
    }),
  }))();

export const addHandle = /* @__PURE__ */ (() =>
  contract({
    operationId: 'addHandle',
    ...onboarding,
    method: 'PUT',
    path: '/onboarding/account/handle',
    handler: 'identity/add-handle',
    dynamo: { actions: ['DeleteItem', 'GetItem', 'PutItem', 'UpdateItem'] },
    auth: 'required',
    summary: "Set or change the caller's handle (e.g. replace the one typed at Google sign-in)",
    description:
      "Sets or changes the signed-in creator's handle, e.g. to replace the one typed at Google sign-in; the old handle becomes free for others. A change of letter case only keeps the handle.",
    request: { body: claimHandleBody },
    responses: () => ({
      200: {
        description: 'The account with its new handle and onboarding progress',
        data: identityResponses().OnboardingAccount,
      },
      404: { description: "The token's account no longer exists", message: 'Account not found' },
      409: {
        description:
          'Another account holds the handle (ignoring letter case), or the handle changed meanwhile',
        message: 'Handle already taken',
      },
    }),
  }))();

export const checkHandle = /* @__PURE__ */ (() =>
  contract({
    operationId: 'checkHandle',
    ...onboarding,
    method: 'GET',
    path: '/onboarding/account/check-handle',
    handler: 'identity/check-handle',
    dynamo: { actions: ['BatchGetItem', 'UpdateItem'] },
    auth: 'none',
    ...guard(60, 50),
    summary: 'Is a handle available? With available suggestions when not',
    description:
      'Tells whether a handle can be claimed (free and well-formed, ignoring letter case). When it cannot, up to 3 available alternatives are suggested; a malformed handle also gets the rule it breaks.',
    request: { query: checkHandleQuery },
    responses: () => ({
      200: {
        description: 'Whether the handle is available, with suggestions when not',
        data: identityResponses().HandleAvailability,
      },
    }),
  }))();

export const checkEmail = /* @__PURE__ */ (() =>
  contract({
    operationId: 'checkEmail',
    ...onboarding,
    method: 'GET',
    path: '/onboarding/account/check-email',
    handler: 'identity/check-email',
    dynamo: { actions: ['GetItem', 'UpdateItem'] },
    auth: 'none',
    ...guard(30, 20),
    summary: 'Is an email available?',
    description:
      'Tells whether an email address can still register (no account uses it, ignoring letter case), with a message when it cannot.',
    request: { query: checkEmailQuery },
    responses: () => ({
      200: { description: 'Whether the address is available', data: identityResponses().EmailAvailability },
    }),
  }))();

export const listOnboardingCategories = /* @__PURE__ */ (() =>
  contract({
    operationId: 'listOnboardingCategories',
    ...onboarding,
    method: 'GET',
    path: '/onboarding/categories',
    handler: 'identity/list-onboarding-categories',
    auth: 'none',
    summary: 'Step 2: content categories to choose from',
    description:
      'The content categories a creator chooses from in onboarding step 2 (POST /onboarding/category), with their labels and icons. Public and the same for everyone.',
    responses: () => ({
      200: {
        description: 'The step number and the categories',
        data: identityResponses().OnboardingCategories,
      },
    }),
  }))();

export const chooseCategory = /* @__PURE__ */ (() =>
  contract({
    operationId: 'chooseCategory',
    ...onboarding,
    method: 'POST',
    path: '/onboarding/category',
    handler: 'identity/choose-category',
    dynamo: { actions: ['GetItem', 'UpdateItem'] },
    auth: 'required',
    summary: 'Step 2: choose the content category',
    description:
      "Onboarding step 2: records the signed-in creator's content category (it may be chosen again). The account turns `active` once the social step is done too.",
    request: { body: categoryBody },
    responses: () => ({
      200: {
        description: 'The account with its category and onboarding progress',
        data: identityResponses().CategoryChosen,
      },
    }),
  }))();

export const listSocialPlatforms = /* @__PURE__ */ (() =>
  contract({
    operationId: 'listSocialPlatforms',
    ...onboarding,
    method: 'GET',
    path: '/onboarding/social/platforms',
    handler: 'identity/list-social-platforms',
    auth: 'none',
    summary: 'Step 3: audience platforms that can be connected',
    description:
      'The audience platforms a creator can connect in onboarding step 3 (POST /onboarding/social/connect). Public and the same for everyone.',
    responses: () => ({
      200: { description: 'The step number and the platforms', data: identityResponses().SocialPlatforms },
    }),
  }))();

export const connectSocial = /* @__PURE__ */ (() =>
  contract({
    operationId: 'connectSocial',
    ...onboarding,
    method: 'POST',
    path: '/onboarding/social/connect',
    handler: 'identity/connect-social',
    dynamo: { actions: ['GetItem', 'UpdateItem'] },
    auth: 'required',
    summary: 'Step 3: connect an audience platform (completes onboarding)',
    description:
      "Onboarding step 3: connects an audience platform to the signed-in creator's account with the token from the platform's SDK (only a SHA-256 of it is kept). Each platform connects once; the account turns `active` once the category step is done too.",
    request: { body: socialConnectBody },
    responses: () => ({
      200: {
        description: 'The account with its connected platforms and onboarding progress',
        data: identityResponses().SocialConnected,
      },
      404: { description: "The token's account no longer exists", message: 'Account not found' },
      409: { description: 'This platform is already connected', message: 'youtube is already connected' },
    }),
  }))();

export const logIn = /* @__PURE__ */ (() =>
  contract({
    operationId: 'logIn',
    ...auth,
    method: 'POST',
    path: '/auth/login',
    handler: 'identity/log-in',
    // ConditionCheckItem: the session is stored only while the password is the one checked and
    // the account was not signed out everywhere since it was read.
    dynamo: { actions: ['ConditionCheckItem', 'GetItem', 'PutItem', 'UpdateItem'] },
    ...hashes,
    auth: 'none',
    needs: ['token-signer'],
    ...guard(10, 20),
    summary: 'Sign in with email and password',
    description:
      'Signs an account in with its email (any letter case) and password, and returns the account with a new token pair (`Cache-Control: no-store`). An unknown email and a wrong password get the same 401, in similar time. An account with a second factor gets 202 with a challenge instead of tokens: send it with the authenticator code to POST /auth/mfa.',
    request: { body: loginBody },
    responses: () => ({
      200: {
        description: 'Signed in: the account and a new token pair',
        data: identityResponses().SignedInAccount,
        headers,
      },
      202: {
        description:
          'The password is right and the account has a second factor: no tokens yet; finish with POST /auth/mfa within 5 minutes',
        data: secondFactorResponses().MfaChallenge,
        headers,
      },
      401: {
        description:
          'Unknown email, wrong password, or an account without a password (Google only); or the password was changed or reset while this sign-in was checking it (`The password changed while signing in: sign in again with the new one`), or the account was signed out everywhere meanwhile (`This account was signed out everywhere while signing in: sign in again`)',
        message: 'Email or password is incorrect',
      },
    }),
  }))();

export const refreshSession = /* @__PURE__ */ (() =>
  contract({
    operationId: 'refreshSession',
    ...auth,
    method: 'POST',
    path: '/auth/refresh',
    handler: 'identity/refresh-session',
    // PutItem: the retired secret's record (shared/identity/refresh-family-repository.ts).
    dynamo: { actions: ['GetItem', 'PutItem', 'UpdateItem'] },
    auth: 'none',
    needs: ['token-signer'],
    ...guard(30, 50),
    summary: 'Exchange a refresh token for a new token pair (rotation, reuse detection)',
    description:
      'Exchanges a refresh token for a new token pair (`Cache-Control: no-store`). Each refresh token works once: presenting one already exchanged revokes every token of that sign-in (reuse detection). The sign-in keeps its original 30-day end.',
    request: { body: refreshBody },
    responses: () => ({
      200: {
        description: 'A new access token and refresh token',
        data: identityResponses().SessionTokens,
        headers,
      },
      401: {
        description:
          'The refresh token is malformed, unknown, expired or revoked, or was already used (which revokes its whole sign-in)',
        message: 'Invalid refresh token',
      },
    }),
  }))();

export const logOut = /* @__PURE__ */ (() =>
  contract({
    operationId: 'logOut',
    ...auth,
    method: 'POST',
    path: '/auth/logout',
    handler: 'identity/log-out',
    // UpdateItem: the family revoked, and the account's chat-pass budget counted. SendMessage: the
    // session's chat connections end (endChatConnections queues the passes), as DELETE /me/sessions/{id}.
    dynamo: { actions: ['UpdateItem'] },
    needs: ['account-jobs'],
    auth: 'required',
    summary: 'Revoke a refresh token family',
    description:
      "Signs out: revokes the refresh token's sign-in (it and every token refreshed from it), if it belongs to the caller; idempotent. Access tokens already issued stay valid until they expire (15 minutes), and get no live chat token meanwhile. The sign-in's open live chat connections end (IVS Chat disconnects an account, not a device: the account's connection in the same room on another device ends too and asks for a new token); with `DELETE /me/sessions` and `DELETE /me/sessions/{id}`, at most 20 times an hour per account (past that the session is still signed out, but open connections are not ended).",
    request: { body: refreshBody },
    responses: () => ({
      204: { description: "Signed out (also for a token already revoked or not the caller's), no body" },
      401: {
        description:
          'No bearer token, a malformed Authorization header, an invalid or expired one, or a refresh token that is not of the form `<family id>.<secret>`',
        message: 'Invalid refresh token',
      },
    }),
  }))();

export const sendEmailVerification = /* @__PURE__ */ (() =>
  contract({
    operationId: 'sendEmailVerification',
    ...auth,
    method: 'POST',
    path: '/auth/email/verification',
    handler: 'identity/send-email-verification',
    dynamo: { actions: ['GetItem', 'PutItem', 'UpdateItem'] },
    needs: ['mailer', 'one-time-codes'],
    auth: 'required',
    rateLimit: { limit: 5, windowSeconds: 86_400, by: 'account' },
    throttle: { rate: 10, burst: 20 },
    summary: "Send a new email-verification code to the caller's address (replaces the previous code)",
    description:
      "Mails a new 6-digit verification code to the signed-in account's address; it replaces the previous code and is valid 15 minutes for 5 attempts. At most 5 a day per account; 409 when mail to the address bounced or was reported as spam; 503 when the mail cannot be sent.",
    responses: () => ({
      200: {
        description: 'A code was sent: where, until when, and how many attempts it allows',
        data: identityResponses().EmailVerificationSent,
      },
      404: { description: "The token's account no longer exists", message: 'Account not found' },
      409: {
        description:
          'The email is already verified, or mail to it bounced permanently or was reported as spam (no code is sent to it any more)',
        message: 'Email is already verified',
      },
    }),
  }))();

export const verifyEmail = /* @__PURE__ */ (() =>
  contract({
    operationId: 'verifyEmail',
    ...auth,
    method: 'POST',
    path: '/auth/email/verify',
    handler: 'identity/verify-email',
    dynamo: { actions: ['DeleteItem', 'GetItem', 'UpdateItem'] },
    needs: ['one-time-codes'],
    auth: 'required',
    rateLimit: { limit: 10, windowSeconds: 60, by: 'account' },
    throttle: { rate: 20, burst: 40 },
    summary: "Verify the caller's email with the 6-digit code sent to it",
    description:
      "Verifies the signed-in account's email with the 6-digit code mailed to it. Every submission spends one of the code's 5 attempts; the right code is used once and marks the account verified.",
    request: { body: verifyEmailBody },
    responses: () => ({
      200: { description: 'The email is verified', data: identityResponses().EmailVerified },
      400: {
        description:
          'The code is wrong (or the body is not valid JSON); the message says how many attempts are left',
        message: 'Incorrect verification code: 4 attempts left',
      },
      409: { description: 'The email is already verified', message: 'Email is already verified' },
      410: {
        description:
          'No usable code: never sent, expired, already used or out of attempts; request a new one',
        message:
          'No valid verification code: it expired, was already used or had too many wrong attempts; request a new one (POST /auth/email/verification)',
      },
    }),
  }))();

export const identityContracts = [
  createAccount,
  signInWithGoogle,
  addHandle,
  checkHandle,
  checkEmail,
  listOnboardingCategories,
  chooseCategory,
  listSocialPlatforms,
  connectSocial,
  logIn,
  refreshSession,
  logOut,
  sendEmailVerification,
  verifyEmail,
] as const;
