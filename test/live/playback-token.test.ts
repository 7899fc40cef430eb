import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signPlaybackToken, verifyPlaybackToken } from '../../shared/playback/playback-token.ts';

const key = randomBytes(32);
const now = new Date('2026-11-22T20:00:00Z');
const claims = { acc: 'acc_1', sid: 'sess_1', str: 'st_1', q: '720p' };

describe('playback tokens', () => {
  it('accept a fresh token for its stream and quality, valid for 5 minutes', () => {
    const { token, expiresAt } = signPlaybackToken(claims, now, key);
    expect(Date.parse(expiresAt) - now.getTime()).toBe(5 * 60_000);
    expect(verifyPlaybackToken(token, { stream: 'st_1', quality: '720p' }, now, key)).toMatchObject({
      ok: true,
      claims: { sid: 'sess_1' },
    });
  });

  it('reject expired, tampered, rebound, foreign-key and malformed tokens', () => {
    const { token } = signPlaybackToken(claims, now, key);
    const [payload, mac] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ v: 1, ...claims, q: '1080p', exp: 9e9 })).toString(
      'base64url',
    );
    const cases: Array<[string, string, { stream: string; quality: string }, Date, Buffer]> = [
      ['expired', token, { stream: 'st_1', quality: '720p' }, new Date(now.getTime() + 5 * 60_000), key],
      ['signature', `${forged}.${mac}`, { stream: 'st_1', quality: '1080p' }, now, key],
      ['rebound', token, { stream: 'st_2', quality: '720p' }, now, key],
      ['rebound', token, { stream: 'st_1', quality: '1080p' }, now, key],
      ['signature', token, { stream: 'st_1', quality: '720p' }, now, randomBytes(32)],
      ['malformed', `${payload}`, { stream: 'st_1', quality: '720p' }, now, key],
    ];
    for (const [reason, candidate, expected, at, k] of cases) {
      expect(verifyPlaybackToken(candidate, expected, at, k), reason).toEqual({ ok: false, reason });
    }
  });
});
