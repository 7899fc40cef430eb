import * as z from 'zod';
import { CATEGORY_IDS } from '../catalog/model.ts';

export const HANDLE_PATTERN = /^[A-Za-z0-9_]{3,30}$/;
const handle = z
  .string({ error: 'handle is required' })
  .regex(HANDLE_PATTERN, { error: 'handle must be 3-30 letters, numbers or underscores' });
const email = z
  .string({ error: 'email is required' })
  .trim()
  .max(254)
  .pipe(z.email({ error: 'email must be a valid email address' }));
const agreed = z.literal(true, { error: 'agreed_to_terms must be true' });

export const createAccountBody = z.object({
  email,
  password: z
    .string({ error: 'password is required' })
    .min(8, { error: 'password must be at least 8 characters' })
    .max(256, { error: 'password must be at most 256 characters' }),
  creator_name: z
    .string({ error: 'creator_name is required' })
    .trim()
    .min(1, { error: 'creator_name is required' })
    .max(80),
  handle,
  agreed_to_terms: agreed,
});

export const googleSignInBody = z.object({
  google_token: z.string({ error: 'google_token is required' }).min(1).max(8192),
  handle: handle.optional(),
  agreed_to_terms: agreed,
});

export const claimHandleBody = z.object({ handle });
export const checkHandleQuery = z.object({
  handle: z.string({ error: 'handle is required' }).min(1, { error: 'handle is required' }).max(64),
});
export const checkEmailQuery = z.object({
  email: z.string({ error: 'email is required' }).trim().min(1, { error: 'email is required' }).max(254),
});
export const loginBody = z.object({
  email,
  password: z.string({ error: 'password is required' }).min(1).max(256),
});
export const refreshBody = z.object({
  refresh_token: z.string({ error: 'refresh_token is required' }).min(1).max(512),
});
export const categoryBody = z.object({
  category_id: z.enum(CATEGORY_IDS, { error: `category_id must be one of: ${CATEGORY_IDS.join(', ')}` }),
});
export const SOCIAL_PLATFORMS = ['instagram', 'youtube', 'tiktok', 'x', 'twitch'] as const;
export const socialConnectBody = z.object({
  platform: z.enum(SOCIAL_PLATFORMS, { error: `platform must be one of: ${SOCIAL_PLATFORMS.join(', ')}` }),
  access_token: z.string({ error: 'access_token is required' }).min(1).max(4096),
});
