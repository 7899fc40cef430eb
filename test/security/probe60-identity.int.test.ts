import { randomUUID } from 'node:crypto';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startLocalAccountJobs } from '../../scripts/local/accounts.ts';
import { dynamo } from '../../shared/db/client.ts';
import { fromNewAddress as from, type TestApi, testApi } from '../support/api.ts';
import { askResetCode } from '../support/mail.ts';
import { signUp } from '../support/studio.ts';

/**
 * The identity probe of stop 60: oversize and unicode input on sign-up, sign-in, reset and the
 * address change, and races on one address or one code, each answered in the envelope (a 4xx,
 * never a 500, never a slow path).
 */
let api: TestApi;
let jobs: Awaited<ReturnType<typeof startLocalAccountJobs>>;
beforeAll(async () => {
  api = await testApi();
  jobs = await startLocalAccountJobs();
});
afterAll(() => jobs.stop());

const PASSWORD = 'correct-horse-1';
const unique = () => randomUUID().replace(/-/g, '').slice(0, 12);
const huge = 'p'.repeat(10_000);
const longEmail = `${'a'.repeat(10_000)}@example.com`;

/** An answer in the error envelope with a 4xx status. */
const refused = (res: { status: number; body: any }) => {
  expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  expect(res.body).toMatchObject({ status: 'error', code: res.status });
};

describe('oversize and unicode input', () => {
  it('is refused in the envelope, quickly, on sign-up, sign-in, forgot, reset, the address change and step-up', async () => {
    const { email, handle, res } = await signUp(api, 'kisprobe');
    expect(res.status).toBe(201);
    const token: string = res.body.data.auth_token;
    const upper = email.toUpperCase();
    const variants = [
      longEmail,
      `${email}\u0000`,
      `probe\u0000.${unique()}@example.com`,
      // Unicode that lower-cases or normalises to the registered address.
      email.replace('e', '\u0065\u0301'),
      email.replace('k', '\u212a'), // KELVIN SIGN lower-cases to "k"
      email.replace('s', '\u017f'), // LATIN SMALL LETTER LONG S upper-cases to "S"
      email.replace('i', '\u0130'), // LATIN CAPITAL LETTER I WITH DOT ABOVE
      `\uff50robe@example.com`, // FULLWIDTH p (NFKC: "p")
    ];
    const signUpBody = (address: string, password = PASSWORD) => ({
      email: address,
      password,
      creator_name: 'Probe',
      handle: `p_${unique()}`,
      agreed_to_terms: true,
    });
    const calls: Array<[string, () => Promise<{ status: number; body: any }>]> = [
      ...variants.map(
        (address, i) =>
          [
            `sign-up ${i}`,
            () => api.post('/onboarding/account/create', from({ body: signUpBody(address) })),
          ] as [string, () => Promise<{ status: number; body: any }>],
      ),
      [
        'sign-up 10,000-char password',
        () =>
          api.post(
            '/onboarding/account/create',
            from({ body: signUpBody(`x.${unique()}@example.com`, huge) }),
          ),
      ],
      [
        'sign-up NUL handle',
        () =>
          api.post(
            '/onboarding/account/create',
            from({
              body: {
                ...signUpBody(`y.${unique()}@example.com`),
                handle: `a\u0000b_${unique().slice(0, 6)}`,
              },
            }),
          ),
      ],
      [
        'sign-up NUL name',
        () =>
          api.post(
            '/onboarding/account/create',
            from({ body: { ...signUpBody(`z.${unique()}@example.com`), creator_name: 'a\u0000b' } }),
          ),
      ],
      [
        'sign-up 10,000-char name',
        () =>
          api.post(
            '/onboarding/account/create',
            from({ body: { ...signUpBody(`w.${unique()}@example.com`), creator_name: huge } }),
          ),
      ],
      [
        'sign-in 10,000-char password',
        () => api.post('/auth/login', from({ body: { email, password: huge } })),
      ],
      [
        'sign-in 10,000-char email',
        () => api.post('/auth/login', from({ body: { email: longEmail, password: PASSWORD } })),
      ],
      ...variants
        .slice(1)
        .map(
          (address, i) =>
            [
              `sign-in variant ${i}`,
              () => api.post('/auth/login', from({ body: { email: address, password: PASSWORD } })),
            ] as [string, () => Promise<{ status: number; body: any }>],
        ),
      [
        'forgot 10,000-char email',
        () => api.post('/auth/password/forgot', from({ body: { email: longEmail } })),
      ],
      ['forgot NUL', () => api.post('/auth/password/forgot', from({ body: { email: `${email}\u0000` } }))],
      [
        'reset 10,000-char password',
        () =>
          api.post('/auth/password/reset', from({ body: { email, code: '12345678', new_password: huge } })),
      ],
      [
        'reset NUL code',
        () =>
          api.post(
            '/auth/password/reset',
            from({ body: { email, code: '1234\u00005678', new_password: 'a-new-long-passphrase' } }),
          ),
      ],
      [
        'reset unicode digits',
        () =>
          api.post(
            '/auth/password/reset',
            from({ body: { email, code: '١٢٣٤٥٦٧٨', new_password: 'a-new-long-passphrase' } }),
          ),
      ],
      [
        'check-email 10,000 chars',
        () => api.get(`/onboarding/account/check-email?email=${encodeURIComponent(longEmail)}`, from()),
      ],
      [
        'email change 10,000-char email',
        () => api.post('/me/email', { token, body: { new_email: longEmail, current_password: PASSWORD } }),
      ],
      [
        'email change to a variant of its own',
        () => api.post('/me/email', { token, body: { new_email: upper, current_password: PASSWORD } }),
      ],
      [
        'email change 10,000-char password',
        () =>
          api.post('/me/email', {
            token,
            body: { new_email: `n.${unique()}@example.com`, current_password: huge },
          }),
      ],
      [
        'email change NUL',
        () =>
          api.post('/me/email', {
            token,
            body: { new_email: `n\u0000.${unique()}@example.com`, current_password: PASSWORD },
          }),
      ],
      [
        'password change 10,000 chars',
        () => api.post('/me/password', { token, body: { current_password: huge, new_password: huge } }),
      ],
      ['step-up 10,000 chars', () => api.post('/auth/step-up', { token, body: { password: huge } })],
      [
        'email verify unicode digits',
        () => api.post('/auth/email/verify', { token, body: { code: '١٢٣٤٥٦' } }),
      ],
      ['delete confirm 10,000 chars', () => api.delete('/me', { token, body: { confirm: huge } })],
    ];
    const slow: string[] = [];
    for (const [name, call] of calls) {
      const started = performance.now();
      const answer = await call();
      const took = performance.now() - started;
      expect([name, answer.status < 500]).toEqual([name, true]);
      if (answer.status >= 400) refused(answer);
      // No 10,000-char password reaches scrypt, nor is a slow path taken for input refused as
      // malformed (a well-formed sign-in or sign-up hashes once, slow by design).
      if ([400, 413, 422].includes(answer.status) && took > 3_000)
        slow.push(`${name}: ${Math.round(took)} ms`);
      // No second account for the "same" address.
      if (
        name.startsWith('sign-up') &&
        !name.includes('password') &&
        !name.includes('name') &&
        !name.includes('handle')
      )
        expect([name, answer.status]).not.toEqual([name, 201]);
    }
    expect(slow).toEqual([]);
    // The account is as it was: its address signs in, no other account took a variant of it.
    expect((await api.post('/auth/login', from({ body: { email: upper, password: PASSWORD } }))).status).toBe(
      200,
    );
    const check = await api.get(`/onboarding/account/check-email?email=${encodeURIComponent(email)}`, from());
    expect(check.body.data.available).toBe(false);
    void handle;
  });
});

/**
 * DynamoDB Local serialises transactions; DynamoDB cancels one that meets another in flight on an
 * item with `TransactionConflict`. From now to the test's end, the first TransactWriteItems that
 * puts an item whose PK `matches` is cancelled so, once; answers how many were.
 */
const conflictOnce = (matches: (pk: string) => boolean): (() => number) => {
  let conflicts = 0;
  const name = `conflict-${unique()}`;
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      const input = (args as { input: { TransactItems?: Array<{ Put?: { Item?: Record<string, any> } }> } })
        .input;
      const items = input.TransactItems ?? [];
      const at = items.findIndex((op) => matches(String(op.Put?.Item?.PK?.S)));
      if (context.commandName === 'TransactWriteItemsCommand' && at >= 0 && conflicts === 0) {
        conflicts++;
        throw new TransactionCanceledException({
          message: 'Transaction cancelled, please refer cancellation reasons for specific reasons',
          $metadata: {},
          CancellationReasons: items.map((_, i) => ({ Code: i === at ? 'TransactionConflict' : 'None' })),
        });
      }
      return next(args);
    },
    { step: 'initialize', name },
  );
  onTestFinished(() => {
    dynamo.middlewareStack.remove(name);
  });
  return () => conflicts;
};

describe('races on one address or one code', () => {
  it('two sign-ups of one address at the same time make exactly one account, the other 409 (a TransactionConflict, as DynamoDB answers a transaction that meets another in flight, was a 500)', async () => {
    const email = `race.${unique()}@example.com`;
    const conflicts = conflictOnce((key) => key === `EMAIL#${email}`);
    const body = (i: number) => ({
      email,
      password: PASSWORD,
      creator_name: 'Race',
      handle: `r${i}_${unique()}`,
      agreed_to_terms: true,
    });
    const answers = await Promise.all(
      [0, 1].map((i) => api.post('/onboarding/account/create', from({ body: body(i) }))),
    );
    expect(conflicts()).toBe(1);
    expect(answers.map((res) => res.status).sort()).toEqual([201, 409]);
    expect(answers.find((res) => res.status === 409)?.body.message).toBe('Email already registered');
  });

  it('a handle change that meets another transaction on its marker is retried, not a 500 (TransactionConflict)', async () => {
    const { res } = await signUp(api, 'handlerace');
    expect(res.status).toBe(201);
    const handle = `h_${unique()}`.slice(0, 20);
    const conflicts = conflictOnce((pk) => pk === `HANDLE#${handle.toLowerCase()}`);
    const changed = await api.patch('/me', { token: res.body.data.auth_token, body: { handle } });
    expect(conflicts()).toBe(1);
    expect([changed.status, changed.body.data?.handle]).toEqual([200, handle]);
  });

  it('two resets with one code at the same time: exactly one sets its password', async () => {
    const { email, res } = await signUp(api, 'resetrace');
    expect(res.status).toBe(201);
    const code = await askResetCode(api, email);
    const passwords = ['first-new-passphrase', 'second-new-passphrase'];
    const answers = await Promise.all(
      passwords.map((new_password) =>
        api.post('/auth/password/reset', from({ body: { email, code, new_password } })),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([204, 410].sort());
    const winner = passwords[answers.findIndex((a) => a.status === 204)]!;
    const loser = passwords.find((p) => p !== winner)!;
    expect((await api.post('/auth/login', from({ body: { email, password: winner } }))).status).toBe(200);
    expect((await api.post('/auth/login', from({ body: { email, password: loser } }))).status).toBe(401);
  });

  it('a reset code is dead once the password changed by another path (a change, or another reset)', async () => {
    const { email, res } = await signUp(api, 'resetafter');
    expect(res.status).toBe(201);
    const token: string = res.body.data.auth_token;
    const code = await askResetCode(api, email);
    const changed = await api.post('/me/password', {
      token,
      body: { current_password: PASSWORD, new_password: 'changed-passphrase-1' },
    });
    expect(changed.status).toBe(200);
    const late = await api.post(
      '/auth/password/reset',
      from({ body: { email, code, new_password: 'attacker-pass-1' } }),
    );
    refused(late);
    expect(late.status).toBe(410);
    // Two codes, the first used: the second was made after it and replaced it.
    const first = await askResetCode(api, email);
    const second = await askResetCode(api, email);
    const used = await api.post(
      '/auth/password/reset',
      from({ body: { email, code: second, new_password: 'reset-passphrase-2' } }),
    );
    expect(used.status).toBe(204);
    const stale = await api.post(
      '/auth/password/reset',
      from({ body: { email, code: first, new_password: 'attacker-pass-2' } }),
    );
    refused(stale);
    expect(
      (await api.post('/auth/login', from({ body: { email, password: 'reset-passphrase-2' } }))).status,
    ).toBe(200);
  });
});
