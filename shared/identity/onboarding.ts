import { createHash, randomUUID } from 'node:crypto';
import { clock } from '../clock.ts';
import { CATEGORIES } from '../catalog/reference.ts';
import { ConflictError, NotFoundError, UnauthorizedError } from '../errors/errors.ts';
import {
  type Account,
  setHandle,
  completeStep,
  createAccount,
  getAccount,
  getAccountByEmail,
  isEmailTaken,
  isEmailVerified,
  normalizeEmail,
  signInBasis,
  takenHandles,
} from './account-repository.ts';
import { recordMetric } from '../observability/index.ts';
import { mailVerificationCode, newVerificationCode } from './email-verification.ts';
import { verificationCodeItem } from './email-verification-repository.ts';
import { assertUncommonPassword } from './common-passwords.ts';
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from './password.ts';
import { issueSession } from './refresh-tokens.ts';
import { signInOrChallenge } from './mfa-challenge.ts';
import type { MfaChallenge } from './second-factor-schemas.ts';
import type { CategoryId } from '../catalog/model.ts';
import {
  type CategoryChosen,
  type CreateAccountBody,
  type CreatorAccount,
  type EmailAvailability,
  HANDLE_PATTERN,
  type HandleAvailability,
  type LoginBody,
  type OnboardingAccount,
  type OnboardingCategories,
  type OnboardingProgress,
  type SignedInAccount,
  type SignedUpAccount,
  SOCIAL_PLATFORMS,
  type SocialConnectBody,
  type SocialConnected,
  type SocialPlatforms,
} from './schemas.ts';

/**
 * Onboarding (docs/identity.md). Three steps: 1 account, 2 content category, 3 connect audience
 * (the spec's later wording removed steps 4-6). `current_step` is the next step to do;
 * `percent_complete` counts the steps after the account (0, 50, 100), so a new account reads
 * current_step 2, percent_complete 0, as the spec's state table shows.
 */
const AFTER_ACCOUNT = ['category', 'social'] as const;
const siteUrl = () => process.env.SITE_URL ?? 'https://creators.example.com';
export const handleUrl = (handle: string) => `${siteUrl()}/@${handle}`;

export const onboardingProgress = (account: Account): OnboardingProgress => {
  const done = AFTER_ACCOUNT.filter((s) => account.completed_steps.includes(s)).length;
  return {
    current_step: Math.min(3, 2 + done),
    total_steps: 3,
    percent_complete: Math.round((done / AFTER_ACCOUNT.length) * 100),
  };
};

export const accountView = (a: Account): CreatorAccount => ({
  creator_id: a.account_id,
  email: a.email,
  creator_name: a.creator_name,
  handle: a.handle,
  handle_url: a.handle ? handleUrl(a.handle) : null,
  user_status: a.user_status,
  email_verified: isEmailVerified(a),
});

export const newAccount = (
  fields: Pick<Account, 'email' | 'creator_name' | 'handle'> & Partial<Account>,
  now: Date,
): Account => ({
  account_id: `acc_${randomUUID()}`,
  app_account_token: randomUUID(),
  user_status: 'onboarding',
  completed_steps: [],
  created_at: now.toISOString(),
  ...fields,
  email: normalizeEmail(fields.email),
});

/**
 * `POST /onboarding/account/create`. The account starts with its email unverified; its first
 * verification code is written in the account's creation transaction and mailed after it (a mail
 * that cannot be sent is logged and the code can be requested again).
 */
export const signUp = async (
  input: CreateAccountBody,
  now: Date,
  userAgent?: string,
): Promise<SignedUpAccount> => {
  await assertUncommonPassword(input.password, 'password');
  const account = newAccount(
    {
      email: input.email,
      creator_name: input.creator_name,
      handle: input.handle,
      password_hash: await hashPassword(input.password),
    },
    now,
  );
  const verification = await newVerificationCode(account.account_id, account.email, now);
  await createAccount(account, [verificationCodeItem(verification.record)]);
  recordMetric('signups');
  await mailVerificationCode(account.email, verification.code);
  return {
    ...accountView(account),
    ...(await issueSession(account.account_id, signInBasis(account, false), now, userAgent)),
    onboarding: onboardingProgress(account),
  };
};

/**
 * `PUT /onboarding/account/handle`: sets or changes the caller's handle (after Google sign-up,
 * a creator may replace the handle typed at sign-in; the old handle becomes free).
 */
export const addHandle = async (accountId: string, handle: string): Promise<OnboardingAccount> => {
  await setHandle(accountId, handle);
  const account = await getAccount(accountId);
  if (!account) throw new NotFoundError('Account not found');
  return { ...accountView(account), onboarding: onboardingProgress(account) };
};

/** Up to 3 alternatives to a taken handle, each checked available (one BatchGetItem). */
const suggestionsFor = async (handle: string): Promise<string[]> => {
  const base = handle.replace(/[^A-Za-z0-9_]/g, '').slice(0, 24) || 'creator';
  const candidates = [
    `${base}_tv`,
    `${base}_live`,
    `${base}${clock.now().getUTCFullYear() % 100}`,
    `the_${base}`,
    `${base}_official`,
    `${base}_1`,
  ].filter((c) => HANDLE_PATTERN.test(c));
  const taken = await takenHandles(candidates);
  return candidates.filter((c) => !taken.has(c.toLowerCase())).slice(0, 3);
};

/** `GET /onboarding/account/check-handle`. */
export const checkHandle = async (handle: string): Promise<HandleAvailability> => {
  if (!HANDLE_PATTERN.test(handle)) {
    return {
      handle,
      available: false,
      reason: 'Handles are 3-30 letters, numbers or underscores, not starting with acc_ or cr_',
      suggestions: await suggestionsFor(handle),
    };
  }
  const taken = await takenHandles([handle]);
  return taken.has(handle.toLowerCase())
    ? { handle, available: false, suggestions: await suggestionsFor(handle) }
    : { handle, available: true, handle_url: handleUrl(handle), suggestions: [] };
};

/** `GET /onboarding/account/check-email`. */
export const checkEmail = async (email: string): Promise<EmailAvailability> =>
  (await isEmailTaken(email))
    ? { email, available: false, message: 'This email is already registered' }
    : { email, available: true };

/**
 * `POST /auth/login`: one generic 401 for an unknown email or a wrong password, in similar time.
 * An account with a second factor gets a challenge instead of tokens (mfa-challenge.ts).
 */
export const logIn = async (
  input: LoginBody,
  now: Date,
  userAgent?: string,
): Promise<{ signedIn: SignedInAccount } | { challenge: MfaChallenge }> => {
  const account = await getAccountByEmail(input.email);
  const valid = await verifyPassword(input.password, account?.password_hash ?? DUMMY_PASSWORD_HASH);
  // A deleted account (the tombstone, until its purge) answers as a wrong password would.
  if (!account?.password_hash || !valid || account.deleted_at)
    throw new UnauthorizedError('Email or password is incorrect');
  const outcome = await signInOrChallenge(account.account_id, signInBasis(account, true), now, userAgent);
  return 'challenge' in outcome ? outcome : { signedIn: { ...accountView(account), ...outcome.tokens } };
};

/** `GET /onboarding/categories` (step 2 choices). */
export const onboardingCategories = (): OnboardingCategories => ({
  step: 2,
  categories: CATEGORIES.map(({ id, label, icon }) => ({ id, label, icon })),
});

/** `POST /onboarding/category` (step 2). */
export const chooseCategory = async (accountId: string, categoryId: CategoryId): Promise<CategoryChosen> => {
  const account = await completeStep(accountId, 'category', { category: categoryId }, AFTER_ACCOUNT);
  return { ...accountView(account), category: categoryId, onboarding: onboardingProgress(account) };
};

/** Each platform's name as the platform itself writes it. */
const PLATFORM_LABELS: Readonly<Record<(typeof SOCIAL_PLATFORMS)[number], string>> = {
  instagram: 'Instagram',
  youtube: 'YouTube',
  tiktok: 'TikTok',
  x: 'X',
  twitch: 'Twitch',
};

/** `GET /onboarding/social/platforms` (step 3 choices). */
export const socialPlatforms = (): SocialPlatforms => ({
  step: 3,
  platforms: SOCIAL_PLATFORMS.map((id) => ({ id, label: PLATFORM_LABELS[id] })),
});

/**
 * `POST /onboarding/social/connect` (step 3). The client SDK's token is never stored: only the
 * platform, when, and a SHA-256 of the token (to recognise a repeat connect).
 */
export const connectSocial = async (
  accountId: string,
  input: SocialConnectBody,
  now: Date,
): Promise<SocialConnected> => {
  const current = await getAccount(accountId);
  if (!current) throw new NotFoundError('Account not found');
  if (current.social?.some((s) => s.platform === input.platform))
    throw new ConflictError(`${input.platform} is already connected`);
  const social = [
    ...(current.social ?? []),
    {
      platform: input.platform,
      connected_at: now.toISOString(),
      token_sha256: createHash('sha256').update(input.access_token).digest('hex'),
    },
  ];
  const account = await completeStep(accountId, 'social', { social }, AFTER_ACCOUNT);
  return {
    ...accountView(account),
    connected_platforms: social.map((s) => ({ platform: s.platform, connected_at: s.connected_at })),
    onboarding: onboardingProgress(account),
  };
};
