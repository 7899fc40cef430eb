import * as z from 'zod/mini';
import { described, named, responseSchemas, responsesNotBundled } from '../schema/schema-meta.ts';
import { displayText } from '../schema/display-text.ts';
import { identityResponses } from './schemas.ts';

/**
 * Request and response schemas of the second factor (docs/accounts.md "Second factor"): TOTP
 * enrolment, new recovery codes, the sign-in challenge and its completion. Response schemas are
 * built on the first call (shared/schema/schema-meta.ts), so no Lambda bundle carries them.
 */

const totpCode = /* @__PURE__ */ (() =>
  z
    .string({ error: 'code must be a string' })
    .check(
      z.trim(),
      z.regex(/^\d{6}$/, { error: 'code must be the 6 digits your authenticator app shows' }),
    ))();
const recoveryCode = /* @__PURE__ */ (() =>
  z.string({ error: 'recovery_code must be a string' }).check(
    z.regex(/^\s*[A-Za-z0-9]{5}[\s-]?[A-Za-z0-9]{5}\s*$/, {
      error: 'recovery_code must be one of your recovery codes, e.g. ABCDE-23456',
    }),
  ))();

const code = /* @__PURE__ */ (() =>
  described(
    z.optional(totpCode),
    'The 6-digit code the authenticator app shows now (surrounding spaces ignored)',
    '123456',
  ))();
const recovery = /* @__PURE__ */ (() =>
  described(
    z.optional(recoveryCode),
    'One of the recovery codes given at enrolment (any letter case; the dash is optional); each works once',
    'ABCDE-23456',
  ))();

/** Exactly one of `code` and `recovery_code`. */
const oneProof = () =>
  z.superRefine((body: { code?: string; recovery_code?: string }, ctx) => {
    if ((body.code === undefined) === (body.recovery_code === undefined))
      ctx.addIssue({ code: 'custom', path: [], message: 'send exactly one of: code, recovery_code' });
  });

export const enrolTotpBody = /* @__PURE__ */ (() =>
  z.object({
    label: described(
      z.optional(
        displayText({
          name: 'label',
          min: 1,
          max: 40,
          errors: { type: 'label must be a string', min: 'label must not be empty' },
        }),
      ),
      'A name for the authenticator, 1-40 characters (default "Authenticator app")',
      'Phone',
    ),
  }))();

export const confirmTotpBody = /* @__PURE__ */ (() =>
  z.object({
    code: described(
      totpCode,
      'The 6-digit code the authenticator app shows now, after adding the secret',
      '123456',
    ),
  }))();

export const completeMfaSignInBody = /* @__PURE__ */ (() =>
  z
    .object({
      challenge_token: described(
        z
          .string({ error: 'challenge_token is required' })
          .check(z.minLength(1, { error: 'challenge_token is required' }), z.maxLength(256)),
        'The `challenge_token` of the 202 answer of POST /auth/login or POST /onboarding/account/google',
        'acc_3f1c2a9e.7b4d4e8a-9c21-5d6f-7a8b-9c0d3f1c2a9e.ZmFrZS1jaGFsbGVuZ2Utc2VjcmV0',
      ),
      code,
      recovery_code: recovery,
    })
    .check(oneProof()))();
export type CompleteMfaSignInBody = z.infer<typeof completeMfaSignInBody>;

/** Step-up's second factor (with the password), when the account has one. */
export const stepUpProof = { code, recovery_code: recovery };

const buildResponses = () => {
  const timestamp = (description: string, example: string) =>
    described(z.string(), `${description} (ISO 8601 UTC)`, example);
  const SecondFactor = secondFactorSchema();

  const MfaChallenge = named(
    'MfaChallenge',
    z.object({
      mfa_required: described(z.literal(true), 'Always true: the sign-in needs the second factor', true),
      challenge_token: described(
        z.string(),
        'Send it to POST /auth/mfa with the code (or a recovery code): valid 5 minutes, 5 tries, once',
        'acc_3f1c2a9e.7b4d4e8a-9c21-5d6f-7a8b-9c0d3f1c2a9e.ZmFrZS1jaGFsbGVuZ2Utc2VjcmV0',
      ),
      challenge_expires_at: timestamp('When the challenge lapses (5 minutes)', '2026-01-15T12:05:00.000Z'),
      methods: described(
        z.array(z.enum(['totp', 'recovery_code'])),
        'What POST /auth/mfa accepts: `totp` (field `code`) or `recovery_code`',
        ['totp', 'recovery_code'],
      ),
    }),
    'The password (or Google) was right and the account has a second factor: no tokens yet; finish with POST /auth/mfa. Sent with `Cache-Control: no-store`',
  );

  const TotpEnrolment = named(
    'TotpEnrolment',
    z.object({
      factor_id: described(z.string(), 'Id of the factor being enrolled', 'f1c2a9e7'),
      secret: described(
        z.string(),
        'The TOTP secret, base32, to type into an authenticator app by hand. Shown this once: it is never answered again',
        'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
      ),
      otpauth_uri: described(
        z.string(),
        'The same secret as an otpauth:// URI (SHA1, 6 digits, 30 s) to show as a QR code',
        'otpauth://totp/Creator%20Streaming:viewer%40demo.stream?issuer=Creator%20Streaming&secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&algorithm=SHA1&digits=6&period=30',
      ),
      expires_at: timestamp(
        'Confirm with a code (POST /me/mfa/totp/confirm) before this, or enrol again',
        '2026-01-15T12:15:00.000Z',
      ),
    }),
    'A TOTP factor to add to an authenticator app, not active until confirmed; sent with `Cache-Control: no-store`',
  );

  const recoveryCodes = described(
    z.array(z.string()),
    'Ten single-use recovery codes for when the authenticator is lost. Shown this once (only a keyed MAC of each is kept): store them safely',
    ['ABCDE-23456', 'FGHJK-78923'],
  );

  const TotpConfirmed = named(
    'TotpConfirmed',
    z.object({
      factor: SecondFactor,
      recovery_codes: recoveryCodes,
      auth_token: described(
        z.string(),
        'A fresh access token for this sign-in that carries the second factor (`amr: ["mfa"]`)',
        'eyJhbGciOiJFUzI1NiJ9.e30.c2ln',
      ),
      token_expires_at: timestamp('When the access token expires', '2026-01-15T12:15:00.000Z'),
    }),
    'The factor is active: sign-ins and step-ups now ask for its code; sent with `Cache-Control: no-store`',
  );

  const RecoveryCodesRenewed = named(
    'RecoveryCodesRenewed',
    z.object({ recovery_codes: recoveryCodes, factor: SecondFactor }),
    'A new set of recovery codes replaced the whole old one (its unused codes no longer work); sent with `Cache-Control: no-store`',
  );

  return { MfaChallenge, TotpEnrolment, TotpConfirmed, RecoveryCodesRenewed };
};

let secondFactor: ReturnType<typeof buildSecondFactor> | undefined;
const buildSecondFactor = () =>
  named(
    'SecondFactor',
    z.object({
      id: described(z.string(), 'Factor id', 'f1c2a9e7'),
      type: described(z.enum(['totp']), 'Kind of factor: `totp` (an authenticator app, RFC 6238)', 'totp'),
      label: described(z.string(), 'Name given at enrolment', 'Phone'),
      created_at: described(z.string(), 'When it was enrolled (ISO 8601 UTC)', '2026-01-15T12:00:00.000Z'),
      last_used_at: described(
        z.nullable(z.string()),
        'When it last passed a sign-in or step-up (ISO 8601 UTC)',
        '2026-01-16T08:00:00.000Z',
      ),
      recovery_codes_left: described(z.number().check(z.int()), 'Unused recovery codes (of 10)', 10),
      recovery_codes_outdated: described(
        z.boolean(),
        'True when the unused recovery codes are of the kind stored before 2026-11-30 (a plain hash, which whoever reads a copy of the data could test guesses against): prompt the owner to get a new set with POST /me/mfa/totp/recovery-codes. False for a current set, and when no code is left',
        false,
      ),
    }),
    'An enrolled second factor (never its secret)',
  );
/** One `SecondFactor` schema for the document, shared by `GET /me` and the confirmation. */
export const secondFactorSchema = () => {
  secondFactor ??= buildSecondFactor();
  return secondFactor;
};

export const secondFactorResponses =
  process.env.LAMBDA_BUNDLE_RESPONSES === 'none' ? responsesNotBundled : responseSchemas(buildResponses);
type Built = ReturnType<typeof buildResponses>;
export type MfaChallenge = z.infer<Built['MfaChallenge']>;
export type TotpEnrolment = z.infer<Built['TotpEnrolment']>;
export type TotpConfirmed = z.infer<Built['TotpConfirmed']>;
export type RecoveryCodesRenewed = z.infer<Built['RecoveryCodesRenewed']>;
export type SecondFactorView = z.infer<ReturnType<typeof buildSecondFactor>>;

/** The signed-in answer of POST /auth/mfa: the password sign-in's (account and tokens). */
export const signedInAfterMfa = () => identityResponses().SignedInAccount;
