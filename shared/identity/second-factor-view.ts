import type { SecondFactorView } from './second-factor-schemas.ts';
import { getTotpFactor, type TotpFactor } from './second-factor-repository.ts';
import { isOutdatedSet } from './recovery-code-form.ts';

/** What `GET /me` and the enrolment show of a factor (never its secret). */
export const factorView = (factor: TotpFactor): SecondFactorView => ({
  id: factor.factor_id,
  type: 'totp',
  label: factor.label,
  created_at: factor.confirmed_at ?? factor.created_at,
  last_used_at: factor.last_used_at ?? null,
  recovery_codes_left: factor.recovery_hashes?.size ?? 0,
  recovery_codes_outdated: isOutdatedSet(factor.recovery_hashes),
});

/** The account's confirmed second factors (none or one TOTP factor). */
export const secondFactorsOf = async (accountId: string): Promise<SecondFactorView[]> => {
  const factor = await getTotpFactor(accountId);
  return factor?.state === 'active' ? [factorView(factor)] : [];
};

/** The operator's setting as the function was given it: must creators use a second factor? */
export const creatorsMustUseSecondFactor = (): boolean => process.env.CREATOR_SECOND_FACTOR === 'required';
