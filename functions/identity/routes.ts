import type { RouteRow } from '../../shared/http/route.ts';

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

export const identityRoutes: RouteRow[] = [
  {
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
  },
  {
    ...onboarding,
    method: 'POST',
    path: '/onboarding/account/google',
    handler: 'identity/sign-in-with-google',
    dynamo: { actions: ['GetItem', 'PutItem', 'UpdateItem'] },
    auth: 'none',
    needs: ['token-signer'],
    ...guard(20, 10),
    summary: 'Step 1: sign up or sign in with a Google ID token',
  },
  {
    ...onboarding,
    method: 'PUT',
    path: '/onboarding/account/handle',
    handler: 'identity/add-handle',
    dynamo: { actions: ['DeleteItem', 'GetItem', 'PutItem', 'UpdateItem'] },
    auth: 'required',
    summary: "Set or change the caller's handle (e.g. replace the one typed at Google sign-in)",
  },
  {
    ...onboarding,
    method: 'GET',
    path: '/onboarding/account/check-handle',
    handler: 'identity/check-handle',
    dynamo: { actions: ['BatchGetItem', 'UpdateItem'] },
    auth: 'none',
    ...guard(60, 50),
    summary: 'Is a handle available? With available suggestions when not',
  },
  {
    ...onboarding,
    method: 'GET',
    path: '/onboarding/account/check-email',
    handler: 'identity/check-email',
    dynamo: { actions: ['GetItem', 'UpdateItem'] },
    auth: 'none',
    ...guard(30, 20),
    summary: 'Is an email available?',
  },
  {
    ...onboarding,
    method: 'GET',
    path: '/onboarding/categories',
    handler: 'identity/list-onboarding-categories',
    auth: 'none',
    summary: 'Step 2: content categories to choose from',
  },
  {
    ...onboarding,
    method: 'POST',
    path: '/onboarding/category',
    handler: 'identity/choose-category',
    dynamo: { actions: ['GetItem', 'UpdateItem'] },
    auth: 'required',
    summary: 'Step 2: choose the content category',
  },
  {
    ...onboarding,
    method: 'GET',
    path: '/onboarding/social/platforms',
    handler: 'identity/list-social-platforms',
    auth: 'none',
    summary: 'Step 3: audience platforms that can be connected',
  },
  {
    ...onboarding,
    method: 'POST',
    path: '/onboarding/social/connect',
    handler: 'identity/connect-social',
    dynamo: { actions: ['GetItem', 'UpdateItem'] },
    auth: 'required',
    summary: 'Step 3: connect an audience platform (completes onboarding)',
  },
  {
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
  },
  {
    ...auth,
    method: 'POST',
    path: '/auth/refresh',
    handler: 'identity/refresh-session',
    dynamo: { actions: ['GetItem', 'UpdateItem'] },
    auth: 'none',
    needs: ['token-signer'],
    ...guard(30, 50),
    summary: 'Exchange a refresh token for a new token pair (rotation, reuse detection)',
  },
  {
    ...auth,
    method: 'POST',
    path: '/auth/logout',
    handler: 'identity/log-out',
    dynamo: { actions: ['UpdateItem'] },
    auth: 'required',
    summary: 'Revoke a refresh token family',
  },
  {
    ...auth,
    method: 'POST',
    path: '/auth/email/verification',
    handler: 'identity/send-email-verification',
    dynamo: { actions: ['GetItem', 'PutItem', 'UpdateItem'] },
    auth: 'required',
    // GetItem account; PutItem code (replaces the previous one).
    // Each code allows 5 attempts: 5 codes a day per account bound the guesses at a 6-digit code.
    rateLimit: { limit: 5, windowSeconds: 86_400, by: 'account' },
    throttle: { rate: 10, burst: 20 },
    summary: "Send a new email-verification code to the caller's address (replaces the previous code)",
  },
  {
    ...auth,
    method: 'POST',
    path: '/auth/email/verify',
    handler: 'identity/verify-email',
    dynamo: { actions: ['DeleteItem', 'GetItem', 'UpdateItem'] },
    auth: 'required',
    // UpdateItem spends an attempt; TransactWriteItems = DeleteItem code + UpdateItem account;
    // GetItem account only when there is no usable code (already verified?).
    rateLimit: { limit: 10, windowSeconds: 60, by: 'account' },
    throttle: { rate: 20, burst: 40 },
    summary: "Verify the caller's email with the 6-digit code sent to it",
  },
];
