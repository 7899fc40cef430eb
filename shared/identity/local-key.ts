import { createPrivateKey, generateKeyPairSync, type KeyObject, randomUUID } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * A key pair kept in the git-ignored `.local/keys/` (or LOCAL_KEY_DIR), generated on first use.
 * Creation is atomic (write a temp file, hard-link it into place), so parallel processes agree
 * on one key. For the local platform and tests only.
 */
export const loadLocalKey = (
  name: string,
  generate: () => KeyObject,
): { kid: string; privateKey: KeyObject } => {
  const dir = resolve(process.env.LOCAL_KEY_DIR ?? join(import.meta.dirname, '../../.local/keys'));
  const file = join(dir, `${name}.json`);
  let stored: { kid: string; pem: string };
  try {
    stored = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    mkdirSync(dir, { recursive: true });
    const pem = generate().export({ format: 'pem', type: 'pkcs8' });
    const temp = `${file}.${process.pid}.${randomUUID()}`;
    writeFileSync(temp, JSON.stringify({ kid: `${name}-${randomUUID()}`, pem }), { mode: 0o600 });
    try {
      linkSync(temp, file);
    } catch {
      // another process created the key first: use theirs
    }
    rmSync(temp, { force: true });
    stored = JSON.parse(readFileSync(file, 'utf8'));
  }
  return { kid: stored.kid, privateKey: createPrivateKey(stored.pem) };
};

/** The local stand-in for the KMS access-token signing key (P-256). */
export const localSigningKey = () =>
  loadLocalKey(
    'access-token-signing-key',
    () => generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey,
  );
