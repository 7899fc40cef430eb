import * as z from 'zod/mini';
import { CATEGORY_IDS } from '../catalog/model.ts';

export const HANDLE_PATTERN = /^[A-Za-z0-9_]{3,30}$/;
const handle = z
  .string({ error: 'handle is required' })
  .check(z.regex(HANDLE_PATTERN, { error: 'handle must be 3-30 letters, numbers or underscores' }));
const email = z.pipe(
  z.string({ error: 'email is required' }).check(z.trim(), z.maxLength(254)),
  z.email({ error: 'email must be a valid email address' }),
);
const agreed = z.literal(true, { error: 'agreed_to_terms must be true' });
/** A required string of `min`..`max` characters whose absence says `<name> is required`. */
const text = (name: string, min: number, max: number) =>
  z.string({ error: `${name} is required` }).check(z.minLength(min), z.maxLength(max));

export const createAccountBody = z.object({
  email,
  password: z
    .string({ error: 'password is required' })
    .check(
      z.minLength(8, { error: 'password must be at least 8 characters' }),
      z.maxLength(256, { error: 'password must be at most 256 characters' }),
    ),
  creator_name: z
    .string({ error: 'creator_name is required' })
    .check(z.trim(), z.minLength(1, { error: 'creator_name is required' }), z.maxLength(80)),
  handle,
  agreed_to_terms: agreed,
});

export const googleSignInBody = z.object({
  google_token: text('google_token', 1, 8192),
  handle: z.optional(handle),
  agreed_to_terms: agreed,
});

export const claimHandleBody = z.object({ handle });
export const checkHandleQuery = z.object({
  handle: z
    .string({ error: 'handle is required' })
    .check(z.minLength(1, { error: 'handle is required' }), z.maxLength(64)),
});
export const checkEmailQuery = z.object({
  email: z
    .string({ error: 'email is required' })
    .check(z.trim(), z.minLength(1, { error: 'email is required' }), z.maxLength(254)),
});
export const loginBody = z.object({ email, password: text('password', 1, 256) });
export const refreshBody = z.object({ refresh_token: text('refresh_token', 1, 512) });
export const categoryBody = z.object({
  category_id: z.enum(CATEGORY_IDS, { error: `category_id must be one of: ${CATEGORY_IDS.join(', ')}` }),
});
export const SOCIAL_PLATFORMS = ['instagram', 'youtube', 'tiktok', 'x', 'twitch'] as const;
export const socialConnectBody = z.object({
  platform: z.enum(SOCIAL_PLATFORMS, { error: `platform must be one of: ${SOCIAL_PLATFORMS.join(', ')}` }),
  access_token: text('access_token', 1, 4096),
});

/** `POST /auth/email/verify`: the 6-digit code from the verification email. */
export const verifyEmailBody = z.object({
  code: z
    .string({ error: 'code is required' })
    .check(z.trim(), z.regex(/^\d{6}$/, { error: 'code must be the 6 digits from the verification email' })),
});
export const emailVerificationSent = z.object({
  email: z.string(),
  expires_at: z.string(),
  max_attempts: z.number(),
});
export const emailVerified = z.object({
  creator_id: z.string(),
  email: z.string(),
  email_verified: z.literal(true),
  email_verified_at: z.string(),
});
