import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { jwkOf, parseSigningJwk } from '../../shared/identity/signing-jwk.ts';

/**
 * The one function that makes the signing key's public JWK (deploy-time resource, local
 * platform) and its reader (shared/identity/jwks.ts): what one writes the other reads back, and
 * anything else is refused with a message naming the problem.
 */
const p256 = () => generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey;
const der = (key = p256()) => key.export({ type: 'spki', format: 'der' });

describe('jwkOf', () => {
  it("makes the P-256 key's public JWK: ES256, sig, the given kid, no private part", () => {
    const key = p256();
    const { x, y } = key.export({ format: 'jwk' });
    expect(jwkOf(der(key), 'key-1')).toEqual({
      kty: 'EC',
      crv: 'P-256',
      x,
      y,
      kid: 'key-1',
      alg: 'ES256',
      use: 'sig',
    });
  });

  it('refuses a key that is not EC P-256', () => {
    const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey;
    expect(() => jwkOf(der(p384), 'key-1')).toThrow('Signing key key-1 is not an EC P-256 key');
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey;
    expect(() => jwkOf(der(rsa), 'key-1')).toThrow('is not an EC P-256 key');
  });
});

describe('parseSigningJwk', () => {
  it('reads back what jwkOf made', () => {
    const jwk = jwkOf(der(), 'key-1');
    expect(parseSigningJwk(JSON.stringify(jwk))).toEqual(jwk);
  });

  it('refuses anything else, naming the problem', () => {
    const jwk = jwkOf(der(), 'key-1');
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const cases: Array<[string, RegExp]> = [
      ['', /^SIGNING_PUBLIC_JWK is not JSON/],
      ['[]', /is not the signing key's public JWK \(ES256, P-256\): the JWK must be an object$/],
      [JSON.stringify({ ...jwk, crv: 'P-384' }), /: crv must be "P-256"$/],
      [JSON.stringify({ ...jwk, alg: 'RS256' }), /: alg must be "ES256"$/],
      [JSON.stringify({ ...jwk, kid: '' }), /: kid must not be empty$/],
      [JSON.stringify({ ...jwk, x: undefined }), /: x must be a string$/],
      // A private part never belongs in an environment.
      [JSON.stringify({ ...jwk, d: privateKey.export({ format: 'jwk' }).d }), /: unexpected d$/],
      [JSON.stringify({ ...jwk, x: jwk.y }), /holds no valid P-256 public key/],
    ];
    for (const [text, message] of cases) expect(() => parseSigningJwk(text), text).toThrow(message);
  });
});
