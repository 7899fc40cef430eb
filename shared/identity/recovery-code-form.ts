/**
 * Which form a stored set of recovery codes is in (docs/accounts.md "Second factor"): keyed
 * (`mac1:` and a MAC under the one-time-code KMS key, since 2026-11-30) or the legacy plain
 * SHA-256. A set is written whole, so it is all one form. A module of its own, without the KMS
 * client: `GET /me` and the export show the form (`recovery_codes_outdated`) and make no MAC.
 */

/** What a keyed stored form starts with; a legacy SHA-256 (base64url) never holds a colon. */
export const KEYED = 'mac1:';

/** Does the stored set hold keyed codes? False for a legacy set, and for none (all used). */
export const isKeyedSet = (stored: ReadonlySet<string> | undefined): boolean =>
  [...(stored ?? [])].some((form) => form.startsWith(KEYED));

/** Legacy codes still usable: the owner should replace them (POST /me/mfa/totp/recovery-codes). */
export const isOutdatedSet = (stored: ReadonlySet<string> | undefined): boolean =>
  (stored?.size ?? 0) > 0 && !isKeyedSet(stored);
