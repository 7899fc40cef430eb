import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { issueAccessToken, signJwt } from '../../shared/identity/access-token.ts';
import { publicJwks } from '../../shared/identity/jwks.ts';
import { TOKEN_AUDIENCE, TOKEN_ISSUER } from '../../shared/identity/token-claims.ts';
import { verifyAccessToken } from '../../shared/identity/token-verifier.ts';

const now = () => new Date();
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const claims = (over: Record<string, unknown> = {}) => {
  const iat = Math.floor(Date.now() / 1000);
  return {
    iss: TOKEN_ISSUER,
    aud: TOKEN_AUDIENCE,
    sub: 'acc_1',
    iat,
    exp: iat + 600,
    token_use: 'access',
    ...over,
  };
};

describe('access tokens', () => {
  it('round-trips: an issued token verifies to its account', async () => {
    const { token, expiresAt } = await issueAccessToken('acc_123', now());
    expect(await verifyAccessToken(token)).toMatchObject({ accountId: 'acc_123' });
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(14 * 60_000);
  });

  it('publishes the public key as an ES256 JWKS without private parts, kid = the signing key id', () => {
    const jwks = publicJwks();
    expect(jwks.keys).toEqual([
      {
        kty: 'EC',
        crv: 'P-256',
        x: expect.any(String),
        y: expect.any(String),
        kid: process.env.SIGNING_KEY_ID,
        alg: 'ES256',
        use: 'sig',
      },
    ]);
  });

  it('rejects tampered, unsigned, expired, foreign and refresh tokens with 401', async () => {
    const { token } = await issueAccessToken('acc_123', now());
    const [header, , signature] = token.split('.');
    const bad: Record<string, string> = {
      tampered: `${header}.${b64(claims({ sub: 'acc_admin' }))}.${signature}`,
      'alg none': `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims())}.`,
      expired: await signJwt(claims({ iat: 1_000, exp: 2_000 })),
      'other audience': await signJwt(claims({ aud: 'someone-else' })),
      'other issuer': await signJwt(claims({ iss: 'https://evil.example.com' })),
      'refresh used as access': await signJwt(claims({ token_use: 'refresh' })),
      'no subject': await signJwt(claims({ sub: undefined })),
      garbage: 'not.a.jwt',
    };
    // Signed by a key the service does not know, with the service's kid.
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const kid = JSON.parse(Buffer.from(header!, 'base64url').toString()).kid;
    const foreignHead = b64({ alg: 'ES256', typ: 'JWT', kid });
    const foreignBody = b64(claims());
    const foreignSig = sign('sha256', Buffer.from(`${foreignHead}.${foreignBody}`), {
      key: privateKey,
      dsaEncoding: 'ieee-p1363',
    });
    bad['foreign key'] = `${foreignHead}.${foreignBody}.${foreignSig.toString('base64url')}`;
    for (const [name, candidate] of Object.entries(bad)) {
      await expect(verifyAccessToken(candidate), name).rejects.toMatchObject({
        kind: 'unauthorized',
        headers: {
          'www-authenticate': expect.stringMatching(/^Bearer error="invalid_token", error_description="/),
        },
      });
    }
  });

  it('tells an expired token from an invalid one in the RFC 6750 challenge (refresh, not sign in)', async () => {
    const expired = await signJwt(claims({ iat: 1_000, exp: 2_000 }));
    await expect(verifyAccessToken(expired)).rejects.toMatchObject({
      message: 'Access token expired',
      headers: {
        'www-authenticate':
          'Bearer error="invalid_token", error_description="The access token expired; get a new one with POST /auth/refresh"',
      },
    });
    await expect(verifyAccessToken('not.a.jwt')).rejects.toMatchObject({
      message: 'Invalid access token',
      headers: {
        'www-authenticate': 'Bearer error="invalid_token", error_description="The access token is invalid"',
      },
    });
  });
});
