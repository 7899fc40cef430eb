import { describe, expect, it } from 'vitest';
import { base32Of, matchingStep, otpauthUri, stepAt, totpCodeAt } from '../../shared/identity/totp.ts';
import { canonicalRecoveryCode, legacyRecoveryCodeHash } from '../../shared/identity/recovery-codes.ts';

// RFC 6238 appendix B: the SHA-1 seed is the ASCII "12345678901234567890"; its 8-digit codes
// end in the 6 digits an authenticator shows (T = 59 s: 94287082, 1111111109 s: 07081804, ...).
const RFC_SECRET = Buffer.from('12345678901234567890');
const at = (seconds: number) => new Date(seconds * 1000);

describe('TOTP codes (RFC 6238)', () => {
  it('are the RFC test vectors, truncated to 6 digits', () => {
    const vectors: Array<[number, string]> = [
      [59, '287082'],
      [1111111109, '081804'],
      [1111111111, '050471'],
      [1234567890, '005924'],
      [2000000000, '279037'],
    ];
    for (const [seconds, code] of vectors)
      expect(totpCodeAt(RFC_SECRET, at(seconds)), String(seconds)).toBe(code);
  });

  it('accept the current step and one either side, nothing further, and name the step matched', () => {
    const now = at(1111111111);
    const step = stepAt(now);
    expect(matchingStep(RFC_SECRET, totpCodeAt(RFC_SECRET, now), now)).toBe(step);
    expect(matchingStep(RFC_SECRET, totpCodeAt(RFC_SECRET, at(1111111111 - 30)), now)).toBe(step - 1);
    expect(matchingStep(RFC_SECRET, totpCodeAt(RFC_SECRET, at(1111111111 + 30)), now)).toBe(step + 1);
    expect(matchingStep(RFC_SECRET, totpCodeAt(RFC_SECRET, at(1111111111 - 60)), now)).toBeUndefined();
    expect(matchingStep(RFC_SECRET, totpCodeAt(RFC_SECRET, at(1111111111 + 60)), now)).toBeUndefined();
  });

  it('refuse what is not a 6-digit code of this secret', () => {
    const now = at(59);
    expect(matchingStep(RFC_SECRET, '000000', now)).toBeUndefined();
    expect(matchingStep(RFC_SECRET, '28708', now)).toBeUndefined();
    expect(matchingStep(RFC_SECRET, '2870820', now)).toBeUndefined();
    expect(matchingStep(Buffer.from('another secret 12345'), '287082', now)).toBeUndefined();
  });

  it('give authenticator apps the secret in base32 and as an otpauth:// URI', () => {
    expect(base32Of(RFC_SECRET)).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    const uri = new URL(otpauthUri(RFC_SECRET, 'me@example.com'));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('secret')).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(uri.searchParams.get('digits')).toBe('6');
    expect(uri.searchParams.get('period')).toBe('30');
    expect(decodeURIComponent(uri.pathname)).toContain('me@example.com');
  });
});

describe('recovery codes', () => {
  // How they are made and stored (a MAC under KMS): test/accounts/second-factor.int.test.ts.
  it('match as typed in any case, with or without the dash, and only for their account', () => {
    expect(canonicalRecoveryCode(' abcde-23456 ')).toBe('ABCDE23456');
    expect(legacyRecoveryCodeHash('acc_1', 'abcde23456')).toBe(
      legacyRecoveryCodeHash('acc_1', 'ABCDE-23456'),
    );
    expect(legacyRecoveryCodeHash('acc_2', 'ABCDE-23456')).not.toBe(
      legacyRecoveryCodeHash('acc_1', 'ABCDE-23456'),
    );
  });
});
