import { describe, expect, it } from 'vitest';
import { isCommonPassword } from '../../shared/identity/common-passwords.ts';
import { COMMON_PASSWORD_COUNT } from '../../shared/identity/common-passwords.data.ts';
import { deviceLabel } from '../../shared/identity/device-label.ts';

describe('deviceLabel', () => {
  it.each([
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1',
      'Safari on iPhone',
    ],
    [
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36',
      'Chrome on Android',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36 Edg/120.0',
      'Edge on Windows',
    ],
    ['Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0', 'Firefox on Linux'],
    ['Creators/3.2 (iPhone; iOS 17.1) CFNetwork/1485 Darwin/23.1.0', 'iPhone app'],
    ['okhttp/4.12.0', 'Mobile app'],
    [undefined, 'Unknown device'],
    ['curl/8.4.0', 'Unknown device'],
  ])('%s → %s', (ua, label) => {
    expect(deviceLabel(ua)).toBe(label);
  });
});

describe('the common-passwords filter', () => {
  it('holds the list and refuses its entries as typed or in capitals, not other passwords', async () => {
    expect(COMMON_PASSWORD_COUNT).toBeGreaterThan(15_000);
    for (const p of ['password123', 'iloveyou1', 'PASSWORD123', 'qwertyuiop'])
      expect(await isCommonPassword(p), p).toBe(true);
    for (const p of ['correct-horse-1', 'a-new-long-passphrase', 'demo-password-1'])
      expect(await isCommonPassword(p), p).toBe(false);
  });
});

describe('the common-passwords filter as stored (issue 41: Rice-coded gaps)', () => {
  it('decodes to exactly the digests of the list’s 8+ character passwords, sorted', async () => {
    const { createRequire } = await import('node:module');
    const { decodeDigests, MIN_PASSWORD_LENGTH, passwordDigest } = await import(
      '../../shared/identity/common-passwords.ts'
    );
    const data = await import('../../shared/identity/common-passwords.data.ts');
    const list: string[] = createRequire(import.meta.url)('@zxcvbn-ts/language-common/src/passwords.json');
    const expected = [
      ...new Set(list.filter((p) => p.length >= MIN_PASSWORD_LENGTH).map(passwordDigest)),
    ].sort((a, b) => a - b);
    const stored = decodeDigests(
      Buffer.from(data.COMMON_PASSWORD_DIGESTS, 'base64'),
      data.COMMON_PASSWORD_RICE_BITS,
      data.COMMON_PASSWORD_COUNT,
    );
    expect(stored.length).toBe(expected.length);
    expect([...stored]).toEqual(expected);
  });

  it('round-trips any sorted digests, the largest and gaps of a whole quotient included', async () => {
    const { decodeDigests, encodeDigests } = await import('../../shared/identity/common-passwords.ts');
    const digests = [0, 1, 2 ** 17, 2 ** 17 + 1, 3_000_000_000, 2 ** 32 - 1];
    const { riceBits, bytes } = encodeDigests(digests);
    expect([...decodeDigests(bytes, riceBits, digests.length)]).toEqual(digests);
  });
});
