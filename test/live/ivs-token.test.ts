import { createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  PLAYBACK_TOKEN_TTL_SECONDS,
  playbackClaims,
  signEs384,
  viewerIdOf,
} from '../../shared/playback/ivs-token.ts';

const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' });
const grant = {
  channelArn: 'arn:aws:ivs:us-east-1:123456789012:channel/AbCdEf123456',
  viewerId: 'acc_0f8b1a52-3c1e-4a51-9a59-61f0c2d1e0aa',
  sessionVersion: 1_795_522_319,
};

describe('IVS playback tokens', () => {
  it('carries the claims IVS reads, expiring within its 10-minute limit for a viewer id', () => {
    const now = new Date('2026-11-24T12:00:00Z');
    const claims = playbackClaims(grant, 'https://watch.example.org', now);
    expect(claims).toEqual({
      'aws:channel-arn': grant.channelArn,
      'aws:access-control-allow-origin': 'https://watch.example.org',
      'aws:viewer-id': grant.viewerId,
      'aws:viewer-session-version': grant.sessionVersion,
      exp: now.getTime() / 1000 + PLAYBACK_TOKEN_TTL_SECONDS,
    });
    expect(PLAYBACK_TOKEN_TTL_SECONDS).toBeLessThanOrEqual(600);
  });

  it('signs ES384 (raw r||s, 96 bytes) so the public key verifies it, and a changed claim does not', () => {
    const token = signEs384({ a: 1 }, privateKey);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toEqual({ alg: 'ES384', typ: 'JWT' });
    const sig = Buffer.from(signature, 'base64url');
    expect(sig).toHaveLength(96);
    const key = { key: createPublicKey(privateKey), dsaEncoding: 'ieee-p1363' as const };
    expect(verify('sha384', Buffer.from(`${header}.${payload}`), key, sig)).toBe(true);
    const forged = Buffer.from(JSON.stringify({ a: 2 })).toString('base64url');
    expect(verify('sha384', Buffer.from(`${header}.${forged}`), key, sig)).toBe(false);
  });

  it('keeps account ids as viewer ids, and fits a longer id into IVS limit of 40, stably', () => {
    expect(viewerIdOf(grant.viewerId)).toBe(grant.viewerId);
    const long = `acc_test_${'x'.repeat(40)}`;
    expect(viewerIdOf(long)).toHaveLength(40);
    expect(viewerIdOf(long)).toBe(viewerIdOf(long));
    expect(viewerIdOf(long)).not.toBe(viewerIdOf(`${long}y`));
  });
});
