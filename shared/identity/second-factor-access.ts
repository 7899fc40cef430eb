import type { FunctionRow } from '../routing/function-row.ts';

/**
 * What identity's key capabilities of a route row grant and set (called by
 * shared/platform/access.ts, so the stack and the local platform derive them the same way;
 * docs/accounts.md "Second factor", docs/identity.md "Email verification"):
 * - `one-time-codes`: kms:GenerateMac on the one-time-code key (an HMAC_256 key,
 *   shared/identity/code-mac.ts: the functions that make or check an emailed code, and those that
 *   make or check recovery codes: the TOTP confirmation, `POST /me/mfa/totp/recovery-codes`,
 *   `POST /auth/mfa`, step-up); ONE_TIME_CODE_KEY_ID.
 * - `totp-encrypt`: kms:Encrypt on the second-factor key (enrolment stores a new secret);
 *   SECOND_FACTOR_KEY_ID.
 * - `totp-decrypt`: kms:Decrypt on it (the functions that check codes); SECOND_FACTOR_KEY_ID.
 * - `second-factor-policy`: CREATOR_SECOND_FACTOR (`prompt` or `required`, the operator's
 *   `creatorSecondFactor` setting), no grant. Every studio route gets it too: with `required`, the
 *   studio refuses a token whose sign-in did not pass a second factor (403
 *   `second_factor_required`, shared/http/middleware/step-up.ts).
 */
export interface SecondFactorDeployment {
  /** The symmetric KMS key that encrypts TOTP secrets. */
  keyId: string;
  keyArn: string;
  /** The KMS HMAC key emailed one-time codes and recovery codes are stored as MACs under. */
  codeKeyId: string;
  codeKeyArn: string;
  /** The operator's setting: `required` makes a second factor mandatory for creators. */
  creators: 'prompt' | 'required';
}

const NEEDS = ['totp-encrypt', 'totp-decrypt', 'second-factor-policy', 'one-time-codes'] as const;
const has = (row: FunctionRow, need: (typeof NEEDS)[number]) => row.needs?.includes(need) ?? false;

const needed = (row: FunctionRow, d: SecondFactorDeployment | undefined) => {
  const uses = NEEDS.some((need) => has(row, need));
  if (uses && !d)
    throw new Error(
      `Function ${row.handler} needs the second-factor settings but the deployment has none (infra/stack.ts)`,
    );
  return uses ? d : undefined;
};

export const secondFactorStatements = (row: FunctionRow, deployment: SecondFactorDeployment | undefined) => {
  const d = needed(row, deployment);
  if (!d) return [];
  const actions = [
    ...(has(row, 'totp-decrypt') ? ['kms:Decrypt'] : []),
    ...(has(row, 'totp-encrypt') ? ['kms:Encrypt'] : []),
  ];
  return [
    ...(actions.length > 0 ? [{ actions, resources: [d.keyArn] }] : []),
    ...(has(row, 'one-time-codes') ? [{ actions: ['kms:GenerateMac'], resources: [d.codeKeyArn] }] : []),
  ];
};

export const secondFactorEnvironment = (
  row: FunctionRow,
  deployment: SecondFactorDeployment | undefined,
): Record<string, string> => {
  const d = needed(row, deployment);
  if (!d) return {};
  return {
    ...(has(row, 'totp-encrypt') || has(row, 'totp-decrypt') ? { SECOND_FACTOR_KEY_ID: d.keyId } : {}),
    ...(has(row, 'second-factor-policy') ? { CREATOR_SECOND_FACTOR: d.creators } : {}),
    ...(has(row, 'one-time-codes') ? { ONE_TIME_CODE_KEY_ID: d.codeKeyId } : {}),
  };
};

/** Placeholders for `settingsOf` (names only). */
export const SECOND_FACTOR_PLACEHOLDERS: SecondFactorDeployment = {
  keyId: 'x',
  keyArn: 'x',
  codeKeyId: 'x',
  codeKeyArn: 'x',
  creators: 'prompt',
};
