import { ConflictError, UnauthorizedError, ValidationError } from '../errors/errors.ts';
import { recordMetric } from '../observability/index.ts';
import {
  createAccount,
  getAccountByEmail,
  getAccountByGoogleSub,
  isEmailVerified,
  linkGoogleIdentity,
  signInBasis,
} from './account-repository.ts';
import { verifyGoogleToken } from './google.ts';
import { accountView, newAccount, onboardingProgress } from './onboarding.ts';
import { issueSession } from './refresh-tokens.ts';
import { signInOrChallenge } from './mfa-challenge.ts';
import type { MfaChallenge } from './second-factor-schemas.ts';
import type { GoogleSignIn, GoogleSignInBody, GoogleSignUp } from './schemas.ts';

// Google sign-in in a module of its own: only its function bundles the Google ID token verifier
// (aws-jwt-verify); the other onboarding functions import shared/identity/onboarding.ts.

/**
 * The account a Google identity signs into, if any. By Google subject first; else the account
 * with the same email, linked to this Google identity only when its email is verified (a code
 * sent to the address, or Google created it). An unverified email-and-password account is never
 * signed into (409): whoever registered it may not own the address, and linking would hand the
 * Google user's account to that password (pre-account takeover; docs/identity.md).
 */
const accountForGoogle = async (profile: { sub: string; email: string }, now: Date) => {
  const bySub = await getAccountByGoogleSub(profile.sub);
  if (bySub) return bySub;
  const byEmail = await getAccountByEmail(profile.email);
  if (!byEmail) return undefined;
  // A deleted account is refused below, and is not linked first (its markers await the purge).
  if (byEmail.deleted_at) return byEmail;
  if (byEmail.google_sub !== undefined) {
    throw new ConflictError('An account with this email is linked to another Google account');
  }
  if (!isEmailVerified(byEmail)) {
    throw new ConflictError(
      'An account with this email exists but its email is not verified: sign in with its password and verify the email (POST /auth/email/verify) before signing in with Google',
    );
  }
  await linkGoogleIdentity(byEmail.account_id, byEmail.email, profile.sub, now);
  recordMetric('google_identities_linked');
  return { ...byEmail, google_sub: profile.sub };
};

/**
 * `POST /onboarding/account/google`: 201 with a new account, 200 signing in an existing one, 409
 * for an account with the same email that may not be linked (see `accountForGoogle`).
 */
export const googleSignIn = async (
  input: GoogleSignInBody,
  now: Date,
  userAgent?: string,
): Promise<
  | { created: false; body: GoogleSignIn }
  | { created: true; body: GoogleSignUp }
  | { created: false; challenge: MfaChallenge }
> => {
  const profile = await verifyGoogleToken(input.google_token);
  const existing = await accountForGoogle(profile, now);
  // A deleted account (the tombstone, until its purge) signs in no more (docs/accounts.md).
  if (existing?.deleted_at) throw new UnauthorizedError('This account was deleted');
  if (existing) {
    // An account with a second factor gets a challenge instead of tokens (mfa-challenge.ts).
    const outcome = await signInOrChallenge(
      existing.account_id,
      signInBasis(existing, false),
      now,
      userAgent,
    );
    if ('challenge' in outcome) return { created: false, challenge: outcome.challenge };
    return {
      created: false,
      body: { ...accountView(existing), is_new_account: false, ...outcome.tokens },
    };
  }
  if (!input.handle)
    throw new ValidationError([{ field: 'handle', message: 'handle is required for a new account' }]);
  const account = newAccount(
    {
      email: profile.email,
      creator_name: profile.name,
      handle: input.handle,
      google_sub: profile.sub,
      email_verified: true,
      email_verified_at: now.toISOString(),
    },
    now,
  );
  await createAccount(account);
  return {
    created: true,
    body: {
      ...accountView(account),
      is_new_account: true,
      ...(await issueSession(account.account_id, signInBasis(account, false), now, userAgent)),
      onboarding: onboardingProgress(account),
    },
  };
};
