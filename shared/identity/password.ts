import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Password hashing with scrypt at OWASP's recommended parameters (N=2^17, r=8, p=1), 16-byte salt,
 * 32-byte key. Stored as `scrypt$N$r$p$salt$hash` (base64url), so parameters can be raised later
 * and old hashes still verify. Passwords are never logged or returned.
 */
const PARAMS = { N: 2 ** 17, r: 8, p: 1 };
const KEY_LENGTH = 32;

const derive = (password: string, salt: Buffer, N: number, r: number, p: number): Promise<Buffer> =>
  new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { N, r, p, maxmem: 256 * N * r }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );

export const hashPassword = async (password: string): Promise<string> => {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS.N, PARAMS.r, PARAMS.p);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join(
    '$',
  );
};

/** Constant-time check of `password` against an encoded hash; false for anything malformed. */
export const verifyPassword = async (password: string, encoded: string): Promise<boolean> => {
  const [scheme, n, r, p, salt, hash] = encoded.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), Number(n), Number(r), Number(p));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
};

/**
 * What a password is checked against when the account has none (an unknown address, a
 * Google-only account), so that check costs one scrypt derivation at today's parameters, like a
 * real one. A fixed salt and key (no password derives them), not a hash made at first use: that
 * made the first such check of a container cost two derivations (hashing, then verifying), and an
 * unknown address answered slower than a known one with a wrong password.
 */
export const DUMMY_PASSWORD_HASH = [
  'scrypt',
  PARAMS.N,
  PARAMS.r,
  PARAMS.p,
  'Okp-yGk9z8ORD8JxZgnHAQ',
  'dxZjJFSicdbgYhCcRVADpl224tdp2TowZNnkNpBv8Tc',
].join('$');
