import * as z from 'zod/mini';
import { contract } from '../../shared/http/contract.ts';
import {
  createAccountBody,
  googleSignInBody,
  claimHandleBody,
  checkHandleQuery,
  checkEmailQuery,
  categoryBody,
  socialConnectBody,
  loginBody,
  refreshBody,
  emailVerificationSent,
  emailVerified,
  verifyEmailBody,
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

export const createAccount = contract({
  operationId: 'createAccount',
  ...onboarding,
  method: 'POST',
  path: '/onboarding/account/create',
  handler: 'identity/create-account',
  dynamo: { actions: ['PutItem', 'UpdateItem'] },
  ...hashes,
  auth: 'none',
  needs: ['token-signer'],
  ...guard(10, 10),
  summary: 'Step 1: create a creator account with email and password',
  description: 'Step 1: create a creator account with email and password',
  request: { body: createAccountBody },
  responses: {
    201: { description: 'Created', data: z.unknown() },
  },
});

export const signInWithGoogle = contract({
  operationId: 'signInWithGoogle',
  ...onboarding,
  method: 'POST',
  path: '/onboarding/account/google',
  handler: 'identity/sign-in-with-google',
  dynamo: { actions: ['GetItem', 'PutItem', 'UpdateItem'] },
  auth: 'none',
  needs: ['token-signer'],
  ...guard(20, 10),
  summary: 'Step 1: sign up or sign in with a Google ID token',
  description: 'Step 1: sign up or sign in with a Google ID token',
  request: { body: googleSignInBody },
  responses: {
    200: { description: 'Success', data: z.unknown() },
    201: { description: 'Created', data: z.unknown() },
  },
});

export const addHandle = contract({
  operationId: 'addHandle',
  ...onboarding,
  method: 'PUT',
  path: '/onboarding/account/handle',
  handler: 'identity/add-handle',
  dynamo: { actions: ['DeleteItem', 'GetItem', 'PutItem', 'UpdateItem'] },
  auth: 'required',
  summary: "Set or change the caller's handle (e.g. replace the one typed at Google sign-in)",
  description: "Set or change the caller's handle (e.g. replace the one typed at Google sign-in)",
  request: { body: claimHandleBody },
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const checkHandle = contract({
  operationId: 'checkHandle',
  ...onboarding,
  method: 'GET',
  path: '/onboarding/account/check-handle',
  handler: 'identity/check-handle',
  dynamo: { actions: ['BatchGetItem', 'UpdateItem'] },
  auth: 'none',
  ...guard(60, 50),
  summary: 'Is a handle available? With available suggestions when not',
  description: 'Is a handle available? With available suggestions when not',
  request: { query: checkHandleQuery },
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const checkEmail = contract({
  operationId: 'checkEmail',
  ...onboarding,
  method: 'GET',
  path: '/onboarding/account/check-email',
  handler: 'identity/check-email',
  dynamo: { actions: ['GetItem', 'UpdateItem'] },
  auth: 'none',
  ...guard(30, 20),
  summary: 'Is an email available?',
  description: 'Is an email available?',
  request: { query: checkEmailQuery },
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const listOnboardingCategories = contract({
  operationId: 'listOnboardingCategories',
  ...onboarding,
  method: 'GET',
  path: '/onboarding/categories',
  handler: 'identity/list-onboarding-categories',
  auth: 'none',
  summary: 'Step 2: content categories to choose from',
  description: 'Step 2: content categories to choose from',
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const chooseCategory = contract({
  operationId: 'chooseCategory',
  ...onboarding,
  method: 'POST',
  path: '/onboarding/category',
  handler: 'identity/choose-category',
  dynamo: { actions: ['GetItem', 'UpdateItem'] },
  auth: 'required',
  summary: 'Step 2: choose the content category',
  description: 'Step 2: choose the content category',
  request: { body: categoryBody },
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const listSocialPlatforms = contract({
  operationId: 'listSocialPlatforms',
  ...onboarding,
  method: 'GET',
  path: '/onboarding/social/platforms',
  handler: 'identity/list-social-platforms',
  auth: 'none',
  summary: 'Step 3: audience platforms that can be connected',
  description: 'Step 3: audience platforms that can be connected',
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const connectSocial = contract({
  operationId: 'connectSocial',
  ...onboarding,
  method: 'POST',
  path: '/onboarding/social/connect',
  handler: 'identity/connect-social',
  dynamo: { actions: ['GetItem', 'UpdateItem'] },
  auth: 'required',
  summary: 'Step 3: connect an audience platform (completes onboarding)',
  description: 'Step 3: connect an audience platform (completes onboarding)',
  request: { body: socialConnectBody },
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const logIn = contract({
  operationId: 'logIn',
  ...auth,
  method: 'POST',
  path: '/auth/login',
  handler: 'identity/log-in',
  dynamo: { actions: ['GetItem', 'PutItem', 'UpdateItem'] },
  ...hashes,
  auth: 'none',
  needs: ['token-signer'],
  ...guard(10, 20),
  summary: 'Sign in with email and password',
  description: 'Sign in with email and password',
  request: { body: loginBody },
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const refreshSession = contract({
  operationId: 'refreshSession',
  ...auth,
  method: 'POST',
  path: '/auth/refresh',
  handler: 'identity/refresh-session',
  dynamo: { actions: ['GetItem', 'UpdateItem'] },
  auth: 'none',
  needs: ['token-signer'],
  ...guard(30, 50),
  summary: 'Exchange a refresh token for a new token pair (rotation, reuse detection)',
  description: 'Exchange a refresh token for a new token pair (rotation, reuse detection)',
  request: { body: refreshBody },
  responses: {
    200: { description: 'Success', data: z.unknown() },
  },
});

export const logOut = contract({
  operationId: 'logOut',
  ...auth,
  method: 'POST',
  path: '/auth/logout',
  handler: 'identity/log-out',
  dynamo: { actions: ['UpdateItem'] },
  auth: 'required',
  summary: 'Revoke a refresh token family',
  description: 'Revoke a refresh token family',
  request: { body: refreshBody },
  responses: {
    204: { description: 'Done, no body' },
  },
});

export const sendEmailVerification = contract({
  operationId: 'sendEmailVerification',
  ...auth,
  method: 'POST',
  path: '/auth/email/verification',
  handler: 'identity/send-email-verification',
  dynamo: { actions: ['GetItem', 'PutItem', 'UpdateItem'] },
  auth: 'required',
  rateLimit: { limit: 5, windowSeconds: 86_400, by: 'account' },
  throttle: { rate: 10, burst: 20 },
  summary: "Send a new email-verification code to the caller's address (replaces the previous code)",
  description: "Send a new email-verification code to the caller's address (replaces the previous code)",
  responses: {
    200: { description: 'Success', data: emailVerificationSent },
  },
});

export const verifyEmail = contract({
  operationId: 'verifyEmail',
  ...auth,
  method: 'POST',
  path: '/auth/email/verify',
  handler: 'identity/verify-email',
  dynamo: { actions: ['DeleteItem', 'GetItem', 'UpdateItem'] },
  auth: 'required',
  rateLimit: { limit: 10, windowSeconds: 60, by: 'account' },
  throttle: { rate: 20, burst: 40 },
  summary: "Verify the caller's email with the 6-digit code sent to it",
  description: "Verify the caller's email with the 6-digit code sent to it",
  request: { body: verifyEmailBody },
  responses: {
    200: { description: 'Success', data: emailVerified },
  },
});

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
