import { createHash } from 'node:crypto';
import { ValidationError } from '../http/errors.ts';

/**
 * The breached-password check of NIST SP 800-63B 3.1.1.2: a new password (sign-up, reset,
 * change) may not be one of the most common passwords of leaked-password lists. The list is
 * @zxcvbn-ts/language-common's (generated into common-passwords.data.ts by
 * scripts/build-common-passwords.ts; docs/accounts.md says why this list): about 18,000
 * passwords of 8+ characters, kept as the sorted first 4 bytes of each one's SHA-256, ~72 KB in
 * the three functions that set passwords, one binary search per check. A 4-byte digest can
 * collide: about 1 password in 240,000 is refused though it is not on the list (the person picks
 * another); none on the list gets through. Checked as typed and lower-cased.
 */
export const MIN_PASSWORD_LENGTH = 8;

/** The first 4 bytes of the SHA-256 of `password` (NFKC, as hashing sees it), as an unsigned integer. */
export const passwordDigest = (password: string): number =>
  createHash('sha256').update(password.normalize('NFKC')).digest().readUInt32BE(0);

let digests: Uint32Array | undefined;
const loadDigests = async (): Promise<Uint32Array> => {
  if (!digests) {
    const { COMMON_PASSWORD_DIGESTS } = await import('./common-passwords.data.ts');
    const bytes = Buffer.from(COMMON_PASSWORD_DIGESTS, 'base64');
    digests = new Uint32Array(bytes.length / 4);
    for (let i = 0; i < digests.length; i++) digests[i] = bytes.readUInt32BE(i * 4);
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
