import * as z from 'zod/mini';
import { described, named, responseSchemas, responsesNotBundled } from '../schema/schema-meta.ts';
import { displayText } from '../schema/display-text.ts';
import { email, handle, newPassword, text } from './schemas.ts';
import { stepUpProof, secondFactorSchema } from './second-factor-schemas.ts';

/**
 * Request and response schemas of the account routes (`/me`, password recovery and changes,
 * sessions, step-up: docs/accounts.md). The response schemas are built on the first call
 * (shared/schema/schema-meta.ts `responseSchemas`), so no Lambda bundle carries them.
 */

const digits = (name: string, count: number, what: string) =>
  z
    .string({ error: `${name} is required` })
    .check(
      z.trim(),
      z.regex(new RegExp(`^\\d{${count}}$`), { error: `${name} must be the ${count} digits ${what}` }),
    );

export const updateMeBody = /* @__PURE__ */ (() =>
  z
    .object({
      creator_name: described(
        z.optional(
          displayText({
            name: 'creator_name',
            min: 1,
            max: 80,
            errors: { type: 'creator_name must be a string', min: 'creator_name is required' },
          }),
        ),
        'Display name, 1-80 characters (trimmed)',
        'New Name',
      ),
      handle: described(
        z.optional(handle),
        'New handle: 3-30 letters, digits or underscores, not starting with acc_ or cr_, unique ignoring letter case (the old one becomes free)',
        'new_handle',
      ),
    })
    .check(
      z.superRefine((body, ctx) => {
        if (body.creator_name === undefined && body.handle === undefined)
          ctx.addIssue({ code: 'custom', path: [], message: 'send at least one of: creator_name, handle' });
      }),
    ))();
export type UpdateMeBody = z.infer<typeof updateMeBody>;

export const forgotPasswordBody = /* @__PURE__ */ (() =>
  z.object({
    email: described(email, "The account's email address (any letter case)", 'viewer@demo.stream'),
  }))();

export const RESET_CODE_DIGITS = 8;
export const resetPasswordBody = /* @__PURE__ */ (() =>
  z.object({
    email: described(email, "The account's email address (any letter case)", 'viewer@demo.stream'),
    code: described(
      digits('code', RESET_CODE_DIGITS, 'from the password-reset email'),
      'The 8-digit code from the password-reset email (surrounding spaces ignored)',
      '12345678',
    ),
    new_password: described(
      newPassword('new_password'),
      'The new password, 8-256 characters, not one of the most common passwords',
      'a-new-long-passphrase',
    ),
  }))();
export type ResetPasswordBody = z.infer<typeof resetPasswordBody>;

export const changePasswordBody = /* @__PURE__ */ (() =>
  z.object({
    current_password: described(text('current_password', 1, 256), 'The current password', 'demo-password-1'),
    new_password: described(
      newPassword('new_password'),
      'The new password, 8-256 characters, not one of the most common passwords',
      'a-new-long-passphrase',
    ),
  }))();
export type ChangePasswordBody = z.infer<typeof changePasswordBody>;

export const changeEmailBody = /* @__PURE__ */ (() =>
  z.object({
    new_email: described(email, 'The new address; a code is mailed to it', 'new.address@example.com'),
    current_password: described(text('current_password', 1, 256), 'The current password', 'demo-password-1'),
  }))();
export type ChangeEmailBody = z.infer<typeof changeEmailBody>;

export const confirmEmailChangeBody = /* @__PURE__ */ (() =>
  z.object({
    code: described(
      digits('code', 6, 'from the email sent to the new address'),
      'The 6-digit code mailed to the new address (surrounding spaces ignored)',
      '123456',
    ),
  }))();

export const stepUpBody = /* @__PURE__ */ (() =>
  z.object({
    password: described(text('password', 1, 256), "The account's password", 'demo-password-1'),
    // With a second factor enrolled, one of these too (docs/accounts.md "Second factor").
    ...stepUpProof,
  }))();
export type StepUpBody = z.infer<typeof stepUpBody>;

export const sessionPath = /* @__PURE__ */ (() =>
  z.object({
    id: described(
      z
        .string({ error: 'id is required' })
        .check(z.regex(/^[0-9a-f-]{36}$/, { error: 'id must be a session id from GET /me/sessions' })),
      'Session id (from GET /me/sessions)',
      '3f1c2a9e-7b4d-4e8a-9c21-5d6f7a8b9c0d',
    ),
  }))();

const buildResponses = () => {
  const timestamp = (description: string, example: string) =>
    described(z.string(), `${description} (ISO 8601 UTC)`, example);
  const int = (description: string, example: number) =>
    described(z.number().check(z.int()), description, example);

  const SecondFactor = secondFactorSchema();

  const Me = named(
    'Me',
    z.object({
      account_id: described(z.string(), 'Account id (also the creator id)', 'acc_demo_viewer'),
      email: described(z.string(), 'Sign-in email address, lower-cased', 'viewer@demo.stream'),
      email_verified: described(z.boolean(), 'The owner proved the address', true),
      creator_name: described(z.string(), 'Display name', 'Demo Viewer'),
      handle: described(z.nullable(z.string()), 'Handle; null when none is set', 'demo_viewer'),
      handle_url: described(z.nullable(z.string()), 'URL of the page of the handle', null),
      role: described(
        z.enum(['creator', 'viewer']),
        '`creator` once onboarding is done with a category (a public creator page), else `viewer`',
        'viewer',
      ),
      user_status: described(z.enum(['onboarding', 'active']), 'Onboarding state', 'active'),
      app_account_token: described(
        z.string(),
        "A stable UUID of this account for the app stores (Apple's `appAccountToken`, Google Play's obfuscated account id); never changes",
        '0b7d1c2e-4f5a-4b6c-8d9e-0f1a2b3c4d5e',
      ),
      sign_in_methods: described(
        z.array(z.enum(['password', 'google'])),
        'How the account can sign in; without `password`, set one through POST /auth/password/forgot',
        ['password'],
      ),
      second_factors: described(
        z.array(SecondFactor),
        'Second factors enrolled and confirmed (a TOTP authenticator: POST /me/mfa/totp)',
        [],
      ),
      second_factor_prompt: described(
        z.boolean(),
        'True for a creator with no second factor: the app should prompt them to enrol one',
        false,
      ),
      second_factor_required: described(
        z.boolean(),
        'True for a creator when the operator requires a second factor of creators: the studio refuses them (403 `second_factor_required`) until they enrol one and sign in (or step up) with it',
        false,
      ),
      created_at: timestamp('When the account was created', '2026-01-15T12:00:00.000Z'),
    }),
    "The caller's own account",
  );

  const Session = named(
    'Session',
    z.object({
      id: described(
        z.string(),
        'Session id (its refresh-token family)',
        '3f1c2a9e-7b4d-4e8a-9c21-5d6f7a8b9c0d',
      ),
      device: described(z.string(), 'Device label from the sign-in’s User-Agent', 'Chrome on macOS'),
      created_at: timestamp('When the sign-in happened', '2026-01-15T12:00:00.000Z'),
      last_used_at: timestamp('When its tokens were last refreshed', '2026-01-15T12:45:00.000Z'),
      expires_at: timestamp(
        'When it ends unless revoked (30 days after the sign-in)',
        '2026-02-14T12:00:00.000Z',
      ),
      current: described(z.boolean(), 'The session of the token making this request', true),
    }),
    'A signed-in device: one sign-in and every token refreshed from it',
  );

  const Sessions = named(
    'Sessions',
    z.object({ sessions: described(z.array(Session), 'Usable sessions, newest first') }),
    "The caller's signed-in devices",
  );

  const SessionsRevoked = named(
    'SessionsRevoked',
    z.object({ sessions_revoked: int('How many sessions were signed out', 2) }),
    'Sessions signed out (their access tokens lapse within 15 minutes)',
  );

  const StepUpToken = named(
    'StepUpToken',
    z.object({
      auth_token: described(
        z.string(),
        'A fresh access token (valid 15 minutes)',
        'eyJhbGciOiJFUzI1NiJ9.e30.c2ln',
      ),
      token_expires_at: timestamp('When the access token expires', '2026-01-15T12:15:00.000Z'),
      auth_time: timestamp(
        'The authentication it carries: sensitive actions accept it for 10 minutes',
        '2026-01-15T12:00:00.000Z',
      ),
    }),
    'A fresh access token for sensitive actions; sent with `Cache-Control: no-store`',
  );

  const ResetRequested = named(
    'ResetRequested',
    z.object({
      message: described(
        z.string(),
        'The same text for every address',
        'If an account uses this address, a code to reset its password is on its way. It expires in 15 minutes.',
      ),
    }),
    'Accepted; identical whether or not the address has an account',
  );

  const EmailChangeStarted = named(
    'EmailChangeStarted',
    z.object({
      new_email: described(z.string(), 'Where the code was sent', 'new.address@example.com'),
      expires_at: timestamp('When the code expires (15 minutes)', '2026-01-15T12:15:00.000Z'),
      max_attempts: int('Submissions the code allows', 5),
    }),
    'A code was mailed to the new address; the address changes when it is confirmed',
  );

  const EmailChanged = named(
    'EmailChanged',
    z.object({
      email: described(z.string(), 'The new sign-in address', 'new.address@example.com'),
      email_verified: described(z.literal(true), 'Always true: the code proved it', true),
    }),
    'The sign-in address changed (a notice went to the old one)',
  );

  return { Me, Sessions, SessionsRevoked, StepUpToken, ResetRequested, EmailChangeStarted, EmailChanged };
};

export const accountResponses =
  process.env.LAMBDA_BUNDLE_RESPONSES === 'none' ? responsesNotBundled : responseSchemas(buildResponses);
type Built = ReturnType<typeof buildResponses>;
export type Me = z.infer<Built['Me']>;
export type Sessions = z.infer<Built['Sessions']>;
export type SessionsRevoked = z.infer<Built['SessionsRevoked']>;
export type StepUpToken = z.infer<Built['StepUpToken']>;
export type ResetRequested = z.infer<Built['ResetRequested']>;
export type EmailChangeStarted = z.infer<Built['EmailChangeStarted']>;
export type EmailChanged = z.infer<Built['EmailChanged']>;
