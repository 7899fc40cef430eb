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
