import * as z from 'zod/mini';
import { CATEGORY_IDS } from '../catalog/model.ts';
import { described, named, responseSchemas, responsesNotBundled } from '../schema/schema-meta.ts';
import { displayText } from '../schema/display-text.ts';

/**
 * 3-30 letters, digits or underscores, not starting with `acc_` or `cr_` (any case): those are
 * creator ids, and `/creators/{id}` takes an id or a handle, so such a handle would name another
 * creator's page.
 */
export const HANDLE_PATTERN = /^(?![Aa][Cc][Cc]_|[Cc][Rr]_)[A-Za-z0-9_]{3,30}$/;
const HANDLE_ERROR = 'handle must be 3-30 letters, numbers or underscores, not starting with acc_ or cr_';
/** A handle as every route takes it (HANDLE_PATTERN). */
export const handle = /* @__PURE__ */ (() =>
  described(
    z.string({ error: 'handle is required' }).check(z.regex(HANDLE_PATTERN, { error: HANDLE_ERROR })),
    'A handle: 3-30 letters, numbers or underscores, not starting with acc_ or cr_ (creator ids)',
  ))();
/** An email address, trimmed, at most 254 characters. */
export const email = /* @__PURE__ */ (() =>
  described(
    z.pipe(
      z.string({ error: 'email is required' }).check(z.trim(), z.maxLength(254)),
      z.email({ error: 'email must be a valid email address' }),
    ),
    'An email address',
  ))();
const agreed = /* @__PURE__ */ (() =>
  described(
    z.literal(true, { error: 'agreed_to_terms must be true' }),
    'The creator accepted the terms of service: must be true',
    true,
  ))();
/** A required string of `min`..`max` characters whose absence says `<name> is required`. */
export const text = (name: string, min: number, max: number) =>
  z
    .string({ error: `${name} is required` })
    .check(
      z.minLength(min, { error: `${name} is required` }),
      z.maxLength(max, { error: `${name} must be at most ${max} characters` }),
    );

const HANDLE_RULE =
  '3-30 letters, digits or underscores, not starting with acc_ or cr_, unique ignoring letter case';
/** Obviously fake, well-formed placeholders for token examples (never real tokens). */
const FAKE_JWT = 'eyJhbGciOiJFUzI1NiJ9.e30.c2ln';
const FAKE_REFRESH_TOKEN = '3f1c2a9e-7b4d-4e8a-9c21-5d6f7a8b9c0d.ZmFrZS1yZWZyZXNoLXNlY3JldA';

/** A password to set (`name` in the messages): 8-256 characters, checked against the common-passwords list by the domain. */
export const newPassword = (name: string) =>
  z
    .string({ error: `${name} is required` })
    .check(
      z.minLength(8, { error: `${name} must be at least 8 characters` }),
      z.maxLength(256, { error: `${name} must be at most 256 characters` }),
    );

export const createAccountBody = /* @__PURE__ */ (() =>
  z.object({
    email: described(
      email,
      'Sign-in email address; stored trimmed and lower-cased',
      'new.creator@example.com',
    ),
    password: described(
      newPassword('password'),
      'Password, 8-256 characters, not one of the most common passwords (stored only as a scrypt hash)',
      'correct-horse-1',
    ),
    creator_name: described(
      displayText({
        name: 'creator_name',
        min: 1,
        max: 80,
        errors: { type: 'creator_name is required', min: 'creator_name is required' },
      }),
      'Display name, 1-80 characters (trimmed)',
      'New Creator',
    ),
    handle: described(handle, `Handle for the creator page: ${HANDLE_RULE}`, 'new_creator'),
    agreed_to_terms: agreed,
  }))();
export type CreateAccountBody = z.infer<typeof createAccountBody>;

export const googleSignInBody = /* @__PURE__ */ (() =>
  z.object({
    google_token: described(
      text('google_token', 1, 8192),
      'Google ID token (RS256 JWT from Google Identity Services) whose email Google verified',
      FAKE_JWT,
    ),
    handle: described(
      z.optional(handle),
      `Handle for a new account (${HANDLE_RULE}); required when no account exists yet, ignored otherwise`,
      'new_creator',
    ),
    agreed_to_terms: agreed,
  }))();
export type GoogleSignInBody = z.infer<typeof googleSignInBody>;

export const claimHandleBody = /* @__PURE__ */ (() =>
  z.object({
    handle: described(handle, `The new handle: ${HANDLE_RULE}`, 'new_creator'),
  }))();
export const checkHandleQuery = /* @__PURE__ */ (() =>
  z.object({
    handle: described(
      z
        .string({ error: 'handle is required' })
        .check(z.minLength(1, { error: 'handle is required' }), z.maxLength(64)),
      'Handle to check, 1-64 characters (a malformed one is answered unavailable, with a reason)',
      'new_creator',
    ),
  }))();
export const checkEmailQuery = /* @__PURE__ */ (() =>
  z.object({
    email: described(
      z
        .string({ error: 'email is required' })
        .check(z.trim(), z.minLength(1, { error: 'email is required' }), z.maxLength(254)),
      'Email address to check (compared trimmed and lower-cased)',
      'new.creator@example.com',
    ),
  }))();
export const loginBody = /* @__PURE__ */ (() =>
  z.object({
    email: described(email, 'Sign-in email address (any letter case)', 'viewer@demo.stream'),
    password: described(text('password', 1, 256), 'Password', 'demo-password-1'),
  }))();
export type LoginBody = z.infer<typeof loginBody>;
export const refreshBody = /* @__PURE__ */ (() =>
  z.object({
    refresh_token: described(
      text('refresh_token', 1, 512),
      'Refresh token from the latest sign-in or refresh (`<family id>.<secret>`)',
      FAKE_REFRESH_TOKEN,
    ),
  }))();
export const categoryBody = /* @__PURE__ */ (() =>
  z.object({
    category_id: described(
      z.enum(CATEGORY_IDS, { error: `category_id must be one of: ${CATEGORY_IDS.join(', ')}` }),
      'Content category id (see GET /onboarding/categories)',
      'music',
    ),
  }))();
export const SOCIAL_PLATFORMS = ['instagram', 'youtube', 'tiktok', 'x', 'twitch'] as const;
export type SocialPlatform = (typeof SOCIAL_PLATFORMS)[number];
export const socialConnectBody = /* @__PURE__ */ (() =>
  z.object({
    platform: described(
      z.enum(SOCIAL_PLATFORMS, { error: `platform must be one of: ${SOCIAL_PLATFORMS.join(', ')}` }),
      'Audience platform id (see GET /onboarding/social/platforms)',
      'youtube',
    ),
    access_token: described(
      text('access_token', 1, 4096),
      "Access token from the platform's client SDK; never stored (only its SHA-256)",
      'sdk-token-123',
    ),
  }))();
export type SocialConnectBody = z.infer<typeof socialConnectBody>;

/** `POST /auth/email/verify`: the 6-digit code from the verification email. */
export const verifyEmailBody = /* @__PURE__ */ (() =>
  z.object({
    code: described(
      z
        .string({ error: 'code is required' })
        .check(
          z.trim(),
          z.regex(/^\d{6}$/, { error: 'code must be the 6 digits from the verification email' }),
        ),
      'The 6-digit code from the verification email (surrounding spaces ignored)',
      '123456',
    ),
  }))();

// ---- Responses -------------------------------------------------------------------------------

/**
 * The response schemas, built on the first call of the export below: only the OpenAPI document
 * and the tests call it (through the contracts' `responses`); Lambda bundles leave them out
 * (`responseSchemas`, shared/schema/schema-meta.ts).
 */
const buildResponses = () => {
  /** Account `user_status` values (spec 3): `active` once every onboarding step is done. */
  const USER_STATUSES = ['onboarding', 'active'] as const;

  const timestamp = (description: string, example: string) =>
    described(z.string(), `${description} (ISO 8601 UTC)`, example);
  const int = (description: string, example: number) =>
    described(z.number().check(z.int()), description, example);

  const accountFields = {
    creator_id: described(z.string(), 'Account id', 'acc_demo_creator'),
    email: described(z.string(), 'Sign-in email address, lower-cased', 'creator@demo.stream'),
    creator_name: described(z.string(), 'Display name', 'Demo Creator'),
    handle: described(
      z.nullable(z.string()),
      'Handle (letter case as chosen); null when none is set',
      'demo_creator',
    ),
    handle_url: described(
      z.nullable(z.string()),
      "URL of the creator's page, `{site_url}/@<handle>`; null without a handle",
      'https://creators.example.com/@demo_creator',
    ),
    user_status: described(
      z.enum(USER_STATUSES),
      '`onboarding` until the category and social steps are done, then `active`',
      'onboarding',
    ),
    email_verified: described(
      z.boolean(),
      'The owner proved the email address (a mailed code, or the account was created with Google)',
      false,
    ),
  };

  const CreatorAccount = named(
    'CreatorAccount',
    z.object(accountFields),
    "The caller's account as every account response shows it (spec 2.6)",
  );

  const SessionTokens = named(
    'SessionTokens',
    z.object({
      auth_token: described(
        z.string(),
        'Access token: an ES256 JWT for `Authorization: Bearer`, valid 15 minutes',
        FAKE_JWT,
      ),
      token_expires_at: timestamp('When the access token expires', '2026-01-15T12:15:00.000Z'),
      refresh_token: described(
        z.string(),
        'Refresh token (`<family id>.<secret>`) for POST /auth/refresh: usable once, replaced by each refresh',
        FAKE_REFRESH_TOKEN,
      ),
      refresh_token_expires_at: timestamp(
        'When this sign-in ends: 30 days after it, kept across refreshes',
        '2026-02-14T12:00:00.000Z',
      ),
    }),
    'A token pair; responses carrying one are sent with `Cache-Control: no-store`',
  );

  const OnboardingProgress = named(
    'OnboardingProgress',
    z.object({
      current_step: int('The next step to do: 2 (category) or 3 (social); 3 when done', 2),
      total_steps: described(z.literal(3), 'Steps in all: account, category, social', 3),
      percent_complete: int('Share of the steps after the account that are done: 0, 50 or 100', 0),
    }),
    'Where the account is in the three onboarding steps (spec 2.6, 4.6)',
  );

  const tokens = SessionTokens.shape;
  const onboarding = OnboardingProgress;

  const SignedUpAccount = named(
    'SignedUpAccount',
    z.object({ ...accountFields, ...tokens, onboarding }),
    'A new account with its first token pair and onboarding progress',
  );

  const SignedInAccount = named(
    'SignedInAccount',
    z.object({ ...accountFields, ...tokens }),
    'An existing account signed in, with a new token pair',
  );

  const GoogleSignIn = named(
    'GoogleSignIn',
    z.object({
      ...accountFields,
      is_new_account: described(z.literal(false), 'False: an existing account was signed in', false),
      ...tokens,
    }),
    'An existing account signed in with Google, with a new token pair',
  );

  const GoogleSignUp = named(
    'GoogleSignUp',
    z.object({
      ...accountFields,
      is_new_account: described(z.literal(true), 'True: the account was created by this sign-in', true),
      ...tokens,
      onboarding,
    }),
    'A new account created with Google (email verified), with its first token pair',
  );

  const OnboardingAccount = named(
    'OnboardingAccount',
    z.object({ ...accountFields, onboarding }),
    'The account after a change, with its onboarding progress',
  );

  const CategoryChosen = named(
    'CategoryChosen',
    z.object({
      ...accountFields,
      category: described(z.enum(CATEGORY_IDS), 'The content category chosen', 'music'),
      onboarding,
    }),
    'The account after onboarding step 2',
  );

  const SocialConnected = named(
    'SocialConnected',
    z.object({
      ...accountFields,
      connected_platforms: described(
        z.array(
          z.object({
            platform: described(z.enum(SOCIAL_PLATFORMS), 'Platform id', 'youtube'),
            connected_at: timestamp('When it was connected', '2026-01-15T12:05:00.000Z'),
          }),
        ),
        'Every platform the account has connected, oldest first (tokens are never returned)',
      ),
      onboarding,
    }),
    'The account after onboarding step 3',
  );

  const HandleAvailability = named(
    'HandleAvailability',
    z.object({
      handle: described(z.string(), 'The handle checked, as sent', 'new_creator'),
      available: described(z.boolean(), 'Free and well-formed: can be claimed now', true),
      reason: described(
        z.optional(z.string()),
        'Present only for a malformed handle: the rule it breaks',
        'Handles are 3-30 letters, numbers or underscores',
      ),
      handle_url: described(
        z.optional(z.string()),
        'Present only when available: the page URL the handle would get',
        'https://creators.example.com/@new_creator',
      ),
      suggestions: described(
        z.array(z.string()),
        'Up to 3 available alternatives when unavailable; empty when available',
        [],
      ),
    }),
    'Whether a handle can be claimed (spec 4.6)',
  );

  const EmailAvailability = named(
    'EmailAvailability',
    z.object({
      email: described(z.string(), 'The address checked (trimmed)', 'new.creator@example.com'),
      available: described(z.boolean(), 'No account uses this address (letter case ignored)', true),
      message: described(
        z.optional(z.string()),
        'Present only when unavailable',
        'This email is already registered',
      ),
    }),
    'Whether an email address can register (spec 4.6)',
  );

  const OnboardingCategories = named(
    'OnboardingCategories',
    z.object({
      step: described(z.literal(2), 'The onboarding step these choices are for', 2),
      categories: z.array(
        z.object({
          id: described(z.enum(CATEGORY_IDS), 'Category id, for POST /onboarding/category', 'music'),
          label: described(z.string(), 'Display name', 'Music'),
          icon: described(z.string(), 'Icon name', 'music'),
        }),
      ),
    }),
    'The content categories of onboarding step 2',
  );

  const SocialPlatforms = named(
    'SocialPlatforms',
    z.object({
      step: described(z.literal(3), 'The onboarding step these choices are for', 3),
      platforms: z.array(
        z.object({
          id: described(
            z.enum(SOCIAL_PLATFORMS),
            'Platform id, for POST /onboarding/social/connect',
            'youtube',
          ),
          label: described(z.string(), 'Display name', 'YouTube'),
        }),
      ),
    }),
    'The audience platforms of onboarding step 3',
  );

  const EmailVerificationSent = named(
    'EmailVerificationSent',
    z.object({
      email: described(z.string(), 'Where the code was sent', 'creator@demo.stream'),
      expires_at: timestamp(
        'When the code expires: 15 minutes after it was sent',
        '2026-01-15T12:15:00.000Z',
      ),
      max_attempts: int('Submissions the code allows, right or wrong', 5),
    }),
    'A new verification code was mailed (it replaces the previous one)',
  );

  const EmailVerified = named(
    'EmailVerified',
    z.object({
      creator_id: described(z.string(), 'Account id', 'acc_demo_creator'),
      email: described(z.string(), 'The address verified', 'creator@demo.stream'),
      email_verified: described(z.literal(true), 'Always true', true),
      email_verified_at: timestamp('When it was verified', '2026-01-15T12:03:00.000Z'),
    }),
    "The caller's email address is verified",
  );

  /**
   * One public key of the JWKS (RFC 7517), as shared/identity/signing-jwk.ts `jwkOf` makes it at
   * deploy (read back at run time by its own schema there: these are not in Lambda bundles).
   */
  const SigningJwk = named(
    'SigningJwk',
    z.object({
      kty: described(z.literal('EC'), 'Key type: elliptic curve', 'EC'),
      crv: described(z.literal('P-256'), 'Curve: NIST P-256', 'P-256'),
      x: described(
        z.string(),
        'X coordinate of the public point, base64url',
        'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU',
      ),
      y: described(
        z.string(),
        'Y coordinate of the public point, base64url',
        'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0',
      ),
      kid: described(
        z.string(),
        'Key id: the `kid` in the header of the access tokens this key signed (the KMS key id)',
        '1234abcd-12ab-34cd-56ef-1234567890ab',
      ),
      alg: described(
        z.literal('ES256'),
        'Signature algorithm of the tokens: ECDSA P-256 with SHA-256',
        'ES256',
      ),
      use: described(z.literal('sig'), 'Public key use: verifying signatures', 'sig'),
    }),
    'A public key that verifies access tokens (JWK, RFC 7517)',
  );

  const SigningJwks = named(
    'SigningJwks',
    z.object({
      keys: described(
        z.array(SigningJwk),
        'The keys in use: pick the one whose `kid` the token header names',
      ),
    }),
    'The JSON Web Key Set of the access-token signing keys (RFC 7517)',
  );
  return {
    USER_STATUSES,
    CreatorAccount,
    SessionTokens,
    OnboardingProgress,
    SignedUpAccount,
    SignedInAccount,
    GoogleSignIn,
    GoogleSignUp,
    OnboardingAccount,
    CategoryChosen,
    SocialConnected,
    HandleAvailability,
    EmailAvailability,
    OnboardingCategories,
    SocialPlatforms,
    EmailVerificationSent,
    EmailVerified,
    SigningJwk,
    SigningJwks,
  };
};
export const identityResponses =
  process.env.LAMBDA_BUNDLE_RESPONSES === 'none' ? responsesNotBundled : responseSchemas(buildResponses);
type Built = ReturnType<typeof buildResponses>;

export type UserStatus = Built['USER_STATUSES'][number];
export type CreatorAccount = z.infer<Built['CreatorAccount']>;
export type SessionTokens = z.infer<Built['SessionTokens']>;
export type OnboardingProgress = z.infer<Built['OnboardingProgress']>;
export type SignedUpAccount = z.infer<Built['SignedUpAccount']>;
export type SignedInAccount = z.infer<Built['SignedInAccount']>;
export type GoogleSignIn = z.infer<Built['GoogleSignIn']>;
export type GoogleSignUp = z.infer<Built['GoogleSignUp']>;
export type OnboardingAccount = z.infer<Built['OnboardingAccount']>;
export type CategoryChosen = z.infer<Built['CategoryChosen']>;
export type SocialConnected = z.infer<Built['SocialConnected']>;
export type HandleAvailability = z.infer<Built['HandleAvailability']>;
export type EmailAvailability = z.infer<Built['EmailAvailability']>;
export type OnboardingCategories = z.infer<Built['OnboardingCategories']>;
export type SocialPlatforms = z.infer<Built['SocialPlatforms']>;
export type EmailVerificationSent = z.infer<Built['EmailVerificationSent']>;
export type EmailVerified = z.infer<Built['EmailVerified']>;
export type SigningJwk = z.infer<Built['SigningJwk']>;
export type SigningJwks = z.infer<Built['SigningJwks']>;
