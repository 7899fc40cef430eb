import { createHash } from 'node:crypto';
import { ValidationError } from '../errors/errors.ts';

/**
 * The breached-password check of NIST SP 800-63B 3.1.1.2: a new password (sign-up, reset,
 * change) may not be one of the most common passwords of leaked-password lists. The list is
 * @zxcvbn-ts/language-common's (generated into common-passwords.data.ts by
 * scripts/build-common-passwords.ts; docs/accounts.md says why this list): about 18,000
 * passwords of 8+ characters, kept as the sorted first 4 bytes of each one's SHA-256, stored as
 * the Rice code of the gaps between them (~44 KB instead of 72 KB raw, the same set: issue 41,
 * docs/performance.md), in the three functions that set passwords; decoded once per container at
 * the first check, then one binary search per check. A 4-byte digest can
 * collide: each lookup matches about 1 unlisted password in 240,000 (18,000 / 2^32), and a password
 * is looked up as typed and lower-cased, so about 1 in 120,000 is refused though it is not on the
 * list (the person picks another; docs/accounts.md); none on the list gets through.
 */
export const MIN_PASSWORD_LENGTH = 8;

/** The first 4 bytes of the SHA-256 of `password` (NFKC, as hashing sees it), as an unsigned integer. */
export const passwordDigest = (password: string): number =>
  createHash('sha256').update(password.normalize('NFKC')).digest().readUInt32BE(0);

/**
 * The Rice code of sorted unsigned 32-bit `digests` (what scripts/build-common-passwords.ts
 * stores): each gap to the previous digest (the first's to 0) as its quotient by 2^riceBits in
 * unary (that many 1 bits, then a 0) and its remainder in riceBits bits, most significant bit
 * first; riceBits is the one giving the fewest bytes.
 */
export const encodeDigests = (digests: readonly number[]): { riceBits: number; bytes: Buffer } => {
  const encode = (riceBits: number): Buffer => {
    const bits: number[] = [];
    let previous = 0;
    for (const digest of digests) {
      const gap = digest - previous;
      previous = digest;
      for (let q = Math.floor(gap / 2 ** riceBits); q > 0; q--) bits.push(1);
      bits.push(0);
      for (let b = riceBits - 1; b >= 0; b--) bits.push(Math.floor(gap / 2 ** b) % 2);
    }
    const bytes = Buffer.alloc(Math.ceil(bits.length / 8));
    for (const [i, bit] of bits.entries()) if (bit) bytes[i >> 3]! |= 0x80 >> (i & 7);
    return bytes;
  };
  // The length in bits of each parameter's code, from the gaps; the shortest is written.
  const gaps = digests.map((digest, i) => digest - (i === 0 ? 0 : digests[i - 1]!));
  const lengthOf = (riceBits: number) =>
    gaps.reduce((sum, gap) => sum + Math.floor(gap / 2 ** riceBits) + 1 + riceBits, 0);
  // At most 30: the decoder shifts the remainder in a 32-bit signed integer.
  let riceBits = 30;
  for (let candidate = 29; candidate >= 1; candidate--)
    if (lengthOf(candidate) < lengthOf(riceBits)) riceBits = candidate;
  return { riceBits, bytes: encode(riceBits) };
};

/** The `count` sorted digests of encodeDigests' `bytes`. */
export const decodeDigests = (bytes: Uint8Array, riceBits: number, count: number): Uint32Array => {
  const digests = new Uint32Array(count);
  const unit = 2 ** riceBits;
  let bit = 0;
  let previous = 0;
  for (let i = 0; i < count; i++) {
    let quotient = 0;
    while ((bytes[bit >> 3]! >> (7 - (bit & 7))) & 1) {
      quotient++;
      bit++;
    }
    bit++;
    let remainder = 0;
    for (let b = 0; b < riceBits; b++, bit++)
      remainder = (remainder << 1) | ((bytes[bit >> 3]! >> (7 - (bit & 7))) & 1);
    previous += quotient * unit + remainder;
    digests[i] = previous;
  }
  return digests;
};

let digests: Uint32Array | undefined;
const loadDigests = async (): Promise<Uint32Array> => {
  if (!digests) {
    const { COMMON_PASSWORD_DIGESTS, COMMON_PASSWORD_RICE_BITS, COMMON_PASSWORD_COUNT } = await import(
      './common-passwords.data.ts'
    );
    digests = decodeDigests(
      Buffer.from(COMMON_PASSWORD_DIGESTS, 'base64'),
      COMMON_PASSWORD_RICE_BITS,
      COMMON_PASSWORD_COUNT,
    );
  }
  return digests;
};

const contains = (sorted: Uint32Array, value: number): boolean => {
  let low = 0;
  let high = sorted.length - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const at = sorted[mid]!;
    if (at === value) return true;
    if (at < value) low = mid + 1;
    else high = mid - 1;
  }
  return false;
};

/** Is `password` (or its lower-case form) one of the common passwords? */
export const isCommonPassword = async (password: string): Promise<boolean> => {
  const sorted = await loadDigests();
  return (
    contains(sorted, passwordDigest(password)) || contains(sorted, passwordDigest(password.toLowerCase()))
  );
};

/** 422 on `field` when `password` is a common one. */
export const assertUncommonPassword = async (password: string, field: string): Promise<void> => {
  if (await isCommonPassword(password)) {
    throw new ValidationError([
      {
        field,
        message: `${field} is one of the most common passwords, which are tried first: choose another`,
      },
    ]);
  }
};
