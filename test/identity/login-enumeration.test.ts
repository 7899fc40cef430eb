import { beforeEach, expect, it, vi } from 'vitest';

/**
 * `POST /auth/login` must not tell a registered address from an unknown one (docs/identity.md
 * "Passwords"): same error, and the same expensive work, one scrypt derivation each, whatever the
 * order (the first unknown address of a container included). Counted, not timed.
 */
const derivations = vi.hoisted(() => ({ count: 0 }));
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  const scrypt = ((...args: Parameters<typeof actual.scrypt>) => {
    derivations.count++;
    return (actual.scrypt as (...a: unknown[]) => void)(...args);
  }) as typeof actual.scrypt;
  return { ...actual, default: { ...actual, scrypt }, scrypt };
});
const stored = vi.hoisted(() => ({ account: undefined as unknown }));
vi.mock('../../shared/identity/account-repository.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../shared/identity/account-repository.ts')>()),
  getAccountByEmail: async () => stored.account,
}));

const { logIn, newAccount } = await import('../../shared/identity/onboarding.ts');
const { hashPassword } = await import('../../shared/identity/password.ts');

const attempt = async (email: string) => {
  derivations.count = 0;
  const error = await logIn({ email, password: 'wrong-password-9' }, new Date()).catch((e: Error) => e);
  return { derivations: derivations.count, error: error instanceof Error ? error.message : 'signed in' };
};

beforeEach(() => {
  stored.account = undefined;
});

it('an unknown address, a wrong password and a Google-only account each cost one scrypt derivation and get the same 401', async () => {
  // The unknown address first: the container's first check against the dummy hash.
  const unknown = await attempt('nobody@example.com');
  const known = newAccount(
    {
      email: 'someone@example.com',
      creator_name: 'S',
      handle: 'someone',
      password_hash: await hashPassword('right-password-1'),
    },
    new Date(),
  );
  stored.account = known;
  const wrongPassword = await attempt(known.email);
  stored.account = { ...known, password_hash: undefined };
  const googleOnly = await attempt(known.email);
  stored.account = undefined;
  const unknownAgain = await attempt('nobody.else@example.com');
  const expected = { derivations: 1, error: 'Email or password is incorrect' };
  expect({ unknown, wrongPassword, googleOnly, unknownAgain }).toEqual({
    unknown: expected,
    wrongPassword: expected,
    googleOnly: expected,
    unknownAgain: expected,
  });
});
