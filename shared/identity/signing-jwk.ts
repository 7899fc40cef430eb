import { createPublicKey } from 'node:crypto';
import * as z from 'zod/mini';
import type { SigningJwk } from './schemas.ts';

/**
 * The access-token signing key's public half as a JWK, made in ONE place for every producer:
 * the stack's `Custom::SigningPublicKey` resource (infra/handlers/signing-public-key.ts, from
 * KMS GetPublicKey at deploy) and the local platform (scripts/local/aws.ts, from the local key).
 * Verifying functions and the JWKS route read it from their environment (`SIGNING_PUBLIC_JWK`,
 * shared/identity/jwks.ts) and never call KMS.
 */

/** `der`: the SubjectPublicKeyInfo KMS GetPublicKey answers; `kid`: the key id tokens name. */
export const jwkOf = (der: Uint8Array, kid: string): SigningJwk => {
  const { kty, crv, x, y } = createPublicKey({ key: Buffer.from(der), format: 'der', type: 'spki' }).export({
    format: 'jwk',
  });
  // The signing key is ECC_NIST_P256 (infra): anything else is a misconfigured key, not a JWK to publish.
  if (kty !== 'EC' || crv !== 'P-256' || !x || !y)
    throw new Error(`Signing key ${kid} is not an EC P-256 key`);
  return { kty, crv, x, y, kid, alg: 'ES256', use: 'sig' };
};

/**
 * What `jwkOf` makes, checked where it is read back. Not the documented `SigningJwk` of
 * schemas.ts: response schemas are left out of Lambda bundles (infra/bundling.ts), and this one
 * is read at run time; `satisfies` keeps the two the same shape. Built at the first read, not at
 * module scope: the token signers and the JWKS route import this module at init.
 */
const buildSchema = () =>
  z.strictObject({
    kty: z.literal('EC'),
    crv: z.literal('P-256'),
    x: z.string().check(z.minLength(1)),
    y: z.string().check(z.minLength(1)),
    kid: z.string().check(z.minLength(1)),
    alg: z.literal('ES256'),
    use: z.literal('sig'),
  }) satisfies z.ZodMiniType<SigningJwk>;
let signingJwk: ReturnType<typeof buildSchema> | undefined;

/** One schema issue in words (zod/mini carries no messages of its own: "Invalid input"). */
const problemOf = (issue: z.core.$ZodIssue): string => {
  const member = issue.path.length > 0 ? issue.path.join('.') : 'the JWK';
  switch (issue.code) {
    case 'unrecognized_keys':
      return `unexpected ${issue.keys.join(', ')}`;
    case 'invalid_value':
      return `${member} must be ${issue.values.map((value) => JSON.stringify(value)).join(' or ')}`;
    case 'invalid_type':
      return `${member} must be ${issue.expected === 'object' ? 'an' : 'a'} ${issue.expected}`;
    case 'too_small':
      return `${member} must not be empty`;
    default:
      return `${member}: ${issue.code}`;
  }
};

/**
 * Reads a JWK `jwkOf` made and `JSON.stringify` wrote (`name` is where it came from, for the
 * error): anything else, or a point not on P-256, throws, naming what is wrong.
 */
export const parseSigningJwk = (text: string, name = 'SIGNING_PUBLIC_JWK'): SigningJwk => {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`${name} is not JSON: expected the signing key's public JWK (ES256, P-256)`);
  }
  signingJwk ??= buildSchema();
  const parsed = signingJwk.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map(problemOf);
    throw new Error(`${name} is not the signing key's public JWK (ES256, P-256): ${issues.join('; ')}`);
  }
  try {
    createPublicKey({ key: parsed.data, format: 'jwk' });
  } catch {
    throw new Error(`${name} holds no valid P-256 public key (x, y are not a point on the curve)`);
  }
  return parsed.data;
};
