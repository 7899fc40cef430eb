import { createHash, randomUUID } from 'node:crypto';
import { Secret } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildExportDocument } from '../../shared/accounts/export-document.ts';
import { clock } from '../../shared/clock.ts';
import { db } from '../../shared/db/client.ts';
import { GetCommand, UpdateCommand } from '../../shared/db/document.ts';
import { tableName } from '../../shared/db/table.ts';
import {
  canonicalRecoveryCode,
  keyedRecoveryCode,
  legacyRecoveryCodeHash,
  newRecoveryCodes,
} from '../../shared/identity/recovery-codes.ts';
import { getTotpFactor, replaceRecoveryCodes } from '../../shared/identity/second-factor-repository.ts';
import { issueAccessToken } from '../../shared/identity/access-token.ts';
import { mintGoogleIdToken } from '../../scripts/local/local-idp.ts';
import { readMailbox } from '../../scripts/local/ses.ts';
import { totpCodeAt } from '../../shared/identity/totp.ts';
import { startLocalAccountJobs } from '../../scripts/local/accounts.ts';
import { fromNewAddress as from, type TestApi, testApi } from '../support/api.ts';
import { askResetCode } from '../support/mail.ts';
import { studioCreator } from '../support/studio.ts';
import { beforeSessionWrite } from '../support/before-session-write.ts';

let api: TestApi;
let jobs: Awaited<ReturnType<typeof startLocalAccountJobs>>;
beforeAll(async () => {
  api = await testApi();
  // Forgot-password's codes are stored and mailed by the account jobs worker.
  jobs = await startLocalAccountJobs();
});
afterAll(() => jobs.stop());

const unique = () => randomUUID().replace(/-/g, '').slice(0, 12);
const PASSWORD = 'correct-horse-1';
const SIGNED_OUT = 'This account was signed out everywhere while signing in: sign in again';
const payload = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8'));

interface Enrolled {
  email: string;
  accountId: string;
  /** A fresh access token (auth_time now) carrying the second factor. */
  token: string;
  secret: Uint8Array;
  recoveryCodes: string[];
  /** When the confirming code was made: its time step is spent. */
  enrolledAt: Date;
}

const signUp = async () => {
  const id = unique();
  const email = `mfa.${id}@example.com`;
  const res = await api.post(
    '/onboarding/account/create',
    from({
      body: { email, password: PASSWORD, creator_name: 'Mfa', handle: `m_${id}`, agreed_to_terms: true },
    }),
  );
  expect(res.status).toBe(201);
  return { email, accountId: res.body.data.creator_id as string, token: res.body.data.auth_token as string };
};

/** The code an authenticator app shows at `at`. */
const codeOf = (secret: Uint8Array, at = new Date()) => totpCodeAt(secret, at);
const plus = (date: Date, seconds: number) => new Date(date.getTime() + seconds * 1000);

/**
 * Runs `fn` with the service's clock stopped at `at`, so a code made for `at` is checked in its
 * own time step whatever the machine's load (a test never straddles a 30-second boundary).
 */
const asOf = async <T>(at: Date, fn: () => Promise<T>): Promise<T> => {
  const realNow = clock.now;
  clock.now = () => at;
  try {
    return await fn();
  } finally {
    clock.now = realNow;
  }
};

/** A new account with a confirmed authenticator. */
const enrolled = async (): Promise<Enrolled> => {
  const account = await signUp();
  const start = await api.post('/me/mfa/totp', { token: account.token, body: { label: 'Phone' } });
  expect(start.status).toBe(201);
  expect(start.headers.get('cache-control')).toBe('no-store');
  const secret = new Uint8Array(Secret.fromBase32(start.body.data.secret).buffer);
  const enrolledAt = new Date();
  const confirm = await asOf(enrolledAt, () =>
    api.post('/me/mfa/totp/confirm', { token: account.token, body: { code: codeOf(secret, enrolledAt) } }),
  );
  expect(confirm.status).toBe(200);
  return {
    ...account,
    token: confirm.body.data.auth_token,
    secret,
    recoveryCodes: confirm.body.data.recovery_codes,
    enrolledAt,
  };
};

const logIn = (email: string, password = PASSWORD) =>
  api.post('/auth/login', from({ body: { email, password } }));
const finish = (body: Record<string, unknown>) => api.post('/auth/mfa', from({ body }));

/** The factor's item as a table reader sees it. */
const factorItem = async (accountId: string) => {
  const { Item } = await db.send(
    new GetCommand({
      TableName: tableName(),
      Key: { PK: `ACCOUNT#${accountId}`, SK: 'SECOND_FACTOR#TOTP' },
      ConsistentRead: true,
    }),
  );
  return Item!;
};

/** Replaces the account's recovery codes with `codes` stored as before keyed codes (plain SHA-256). */
const storeLegacySet = (accountId: string, codes: readonly string[]) =>
  db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { PK: `ACCOUNT#${accountId}`, SK: 'SECOND_FACTOR#TOTP' },
      UpdateExpression: 'SET recovery_hashes = :legacy',
      ExpressionAttributeValues: {
        ':legacy': new Set(codes.map((code) => legacyRecoveryCodeHash(accountId, code))),
      },
    }),
  );

/** A password sign-in's challenge token. */
const challengeFor = async (email: string): Promise<string> => {
  const res = await logIn(email);
  expect(res.status).toBe(202);
  return res.body.data.challenge_token;
};

describe('TOTP enrolment', () => {
  it('answers the secret once, activates with a first code, gives 10 recovery codes and shows the factor in GET /me', async () => {
    const account = await signUp();
    const before = await api.get('/me', { token: account.token });
    expect(before.body.data.second_factors).toEqual([]);

    const start = await api.post('/me/mfa/totp', { token: account.token, body: {} });
    expect(start.status).toBe(201);
    const { secret, otpauth_uri } = start.body.data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(new URL(otpauth_uri).searchParams.get('secret')).toBe(secret);
    const bytes = new Uint8Array(Secret.fromBase32(secret).buffer);
    // Not active yet: sign-in still gives tokens.
    expect((await logIn(account.email)).status).toBe(200);
    expect((await api.get('/me', { token: account.token })).body.data.second_factors).toEqual([]);

    const wrong = await api.post('/me/mfa/totp/confirm', { token: account.token, body: { code: '000000' } });
    expect(wrong.status).toBe(400);
    const confirm = await api.post('/me/mfa/totp/confirm', {
      token: account.token,
      body: { code: codeOf(bytes) },
    });
    expect(confirm.status).toBe(200);
    const { recovery_codes, factor, auth_token } = confirm.body.data;
    expect(recovery_codes).toHaveLength(10);
    expect(new Set(recovery_codes).size).toBe(10);
    expect(factor).toMatchObject({ type: 'totp', label: 'Authenticator app', recovery_codes_left: 10 });
    expect(payload(auth_token).amr).toEqual(['mfa']);

    const me = (await api.get('/me', { token: account.token })).body.data;
    expect(me.second_factors).toEqual([expect.objectContaining({ id: factor.id, type: 'totp' })]);
    // The secret is never answered again, nor anything of it.
    expect(JSON.stringify(me)).not.toContain(secret);
    expect((await api.post('/me/mfa/totp', { token: auth_token, body: {} })).status).toBe(409);
    expect(
      (await api.post('/me/mfa/totp/confirm', { token: auth_token, body: { code: codeOf(bytes) } })).status,
    ).toBe(409);
  });

  it('is not confirmed by the token of a signed-out session, which gets no fresh token from it', async () => {
    // Signing a session out ends its refresh at once; its access token lapses within 15 minutes.
    // The confirmation mints an access token of the caller's session: for a signed-out one the
    // outside probe of 2026-11-30 got a fresh 15-minute token (and the factor it enrolled active).
    const account = await signUp();
    const start = await api.post('/me/mfa/totp', { token: account.token, body: {} });
    expect(start.status).toBe(201);
    const secret = new Uint8Array(Secret.fromBase32(start.body.data.secret).buffer);
    const signedOut = await api.delete(`/me/sessions/${payload(account.token).sid}`, {
      token: account.token,
    });
    expect(signedOut.status).toBe(204);
    const confirm = await api.post('/me/mfa/totp/confirm', {
      token: account.token,
      body: { code: codeOf(secret) },
    });
    expect([confirm.status, confirm.body.data?.auth_token]).toEqual([401, undefined]);
    expect((await api.get('/me', { token: account.token })).body.data.second_factors).toEqual([]);
  });

  it("is in the account's export (issue 38 item 6): type, label, dates, codes left; never the secret or a code", async () => {
    const account = await enrolled();
    const document = await buildExportDocument(account.accountId, new Date());
    expect(document.second_factors).toEqual([
      {
        id: expect.any(String),
        type: 'totp',
        label: 'Phone',
        created_at: expect.any(String),
        last_used_at: expect.any(String),
        recovery_codes_left: 10,
        recovery_codes_outdated: false,
      },
    ]);
    const text = JSON.stringify(document);
    expect(text).not.toMatch(/secret|recovery_hashes|last_step/);
    for (const code of account.recoveryCodes) expect(text).not.toContain(code);
  });

  it('needs a recent sign-in to enrol and to remove', async () => {
    const stale = await asOf(plus(new Date(), -11 * 60), signUp);
    const res = await api.post('/me/mfa/totp', { token: stale.token, body: {} });
    expect(res.status).toBe(401);
    expect(res.body.reason).toBe('step_up_required');
    const removal = await api.delete('/me/mfa/totp', { token: stale.token });
    expect(removal.body.reason).toBe('step_up_required');
  });
});

describe('sign-in with a second factor', () => {
  it('answers a challenge instead of tokens, and tokens for the right code', async () => {
    const account = await enrolled();
    const res = await logIn(account.email);
    expect(res.status).toBe(202);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body.data).toMatchObject({ mfa_required: true, methods: ['totp', 'recovery_code'] });
    expect(res.body.data.auth_token).toBeUndefined();
    expect(res.body.data.refresh_token).toBeUndefined();
    // A wrong password still gets the same 401 as before, no challenge.
    expect((await logIn(account.email, 'not-the-password')).status).toBe(401);

    // The next step's code: the enrolment used the current one.
    const next = plus(account.enrolledAt, 30);
    const done = await asOf(next, () =>
      finish({ challenge_token: res.body.data.challenge_token, code: codeOf(account.secret, next) }),
    );
    expect(done.status).toBe(200);
    expect(done.body.data.creator_id).toBe(account.accountId);
    expect(payload(done.body.data.auth_token).amr).toEqual(['mfa']);
    // Its refreshes keep the second factor.
    const refreshed = await api.post(
      '/auth/refresh',
      from({ body: { refresh_token: done.body.data.refresh_token } }),
    );
    expect(payload(refreshed.body.data.auth_token).amr).toEqual(['mfa']);
    // The challenge works once.
    const again = await asOf(plus(next, 30), () =>
      finish({
        challenge_token: res.body.data.challenge_token,
        code: codeOf(account.secret, plus(next, 30)),
      }),
    );
    expect(again.status).toBe(401);
  });

  it('a challenge issued on a password a reset then replaced completes no sign-in', async () => {
    const account = await enrolled();
    const challenge = await challengeFor(account.email);
    const code = await askResetCode(api, account.email);
    const reset = await api.post(
      '/auth/password/reset',
      from({ body: { email: account.email, code, new_password: 'a-new-long-passphrase' } }),
    );
    expect(reset.status).toBe(204);
    const next = plus(account.enrolledAt, 30);
    const done = await asOf(next, () =>
      finish({ challenge_token: challenge, code: codeOf(account.secret, next) }),
    );
    expect([done.status, done.body.message]).toEqual([
      401,
      'The password changed while signing in: sign in again with the new one',
    ]);
  });

  it('"sign out everywhere" after the first factor (before the challenge is answered, or while it is) leaves no sign-in', async () => {
    const account = await enrolled();
    const sessions = async () => (await api.get('/me/sessions', { token: account.token })).body.data.sessions;
    const answer = (challenge: string, step: number) => {
      const at = plus(account.enrolledAt, 30 * step);
      return asOf(at, () => finish({ challenge_token: challenge, code: codeOf(account.secret, at) }));
    };
    // Between the challenge and its answer.
    const challenge = await challengeFor(account.email);
    const out = await api.delete('/me/sessions', { token: account.token });
    expect([out.status, out.body.data]).toEqual([200, { sessions_revoked: 0 }]);
    const done = await answer(challenge, 1);
    expect([done.status, done.body.message, done.body.data]).toEqual([401, SIGNED_OUT, undefined]);
    expect(await sessions()).toHaveLength(1);

    // While the answer is checked: between the completion's checks and its session's write.
    const second = await challengeFor(account.email);
    let during: number | undefined;
    const race = beforeSessionWrite(async () => {
      during = (await api.delete('/me/sessions', { token: account.token })).status;
    });
    try {
      const raced = await answer(second, 2);
      expect([during, raced.status, raced.body.message]).toEqual([200, 401, SIGNED_OUT]);
    } finally {
      race.stop();
    }
    expect(await sessions()).toHaveLength(1);

    // A sign-in after the sign-outs completes.
    expect((await answer(await challengeFor(account.email), 3)).status).toBe(200);
    expect(await sessions()).toHaveLength(2);
  });

  it('refuses a wrong code, then a replayed one, and locks the challenge after 5 submissions', async () => {
    const account = await enrolled();
    const challenge = await challengeFor(account.email);
    const wrong = await finish({ challenge_token: challenge, code: '000000' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('Incorrect code: 4 attempts left');

    // The code the enrolment used (its step) is spent: replaying it is refused.
    const replay = await asOf(account.enrolledAt, () =>
      finish({ challenge_token: challenge, code: codeOf(account.secret, account.enrolledAt) }),
    );
    expect(replay.status).toBe(400);
    expect(replay.body.message).toContain('used already');
    for (const left of [2, 1, 0]) {
      const res = await finish({ challenge_token: challenge, code: '000000' });
      expect(res.body.message).toBe(`Incorrect code: ${left} attempt${left === 1 ? '' : 's'} left`);
    }
    // Locked: even the right code of the next step no longer helps.
    const next = plus(account.enrolledAt, 30);
    const locked = await asOf(next, () =>
      finish({ challenge_token: challenge, code: codeOf(account.secret, next) }),
    );
    expect(locked.status).toBe(401);
    expect(locked.body.message).toContain('sign in again');
    // A new sign-in gets a new challenge, which the right code finishes.
    const fresh = await challengeFor(account.email);
    const ok = await asOf(next, () => finish({ challenge_token: fresh, code: codeOf(account.secret, next) }));
    expect(ok.status).toBe(200);
    // ... and that code cannot be used again in another sign-in.
    const other = await challengeFor(account.email);
    const replayed = await asOf(next, () =>
      finish({ challenge_token: other, code: codeOf(account.secret, next) }),
    );
    expect(replayed.status).toBe(400);
    expect(replayed.body.message).toContain('used already');
  });

  it('limits code submissions per account, across challenges and client addresses (10 per 15 minutes)', async () => {
    // Each challenge allows 5 submissions and each client address 10 sign-ins a minute, but whoever
    // has the password can start challenges from any number of addresses: without a budget per
    // account the outside probe of 2026-11-30 had 15 wrong codes judged in a row, then the right
    // one accepted. The clock stands still, so every submission falls in one window.
    const account = await enrolled();
    const at = plus(account.enrolledAt, 30);
    const statuses = await asOf(at, async () => {
      const seen: number[] = [];
      for (let i = 0; i < 3; i++) {
        const challenge = await challengeFor(account.email);
        for (let j = 0; j < 5; j++)
          seen.push((await finish({ challenge_token: challenge, code: '000000' })).status);
      }
      const right = await finish({
        challenge_token: await challengeFor(account.email),
        code: codeOf(account.secret, at),
      });
      seen.push(right.status);
      if (right.status === 429) {
        expect(right.body).toMatchObject({ code: 429, reason: 'rate_limit' });
        expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      return seen;
    });
    expect(statuses).toEqual([...Array(10).fill(400), ...Array(6).fill(429)]);
  });

  it('refuses a tampered or unknown challenge token and malformed bodies', async () => {
    const account = await enrolled();
    const challenge = await challengeFor(account.email);
    const [id, cid] = challenge.split('.');
    expect((await finish({ challenge_token: `${id}.${cid}.forged`, code: '123456' })).status).toBe(401);
    expect((await finish({ challenge_token: 'nonsense', code: '123456' })).status).toBe(401);
    expect((await finish({ challenge_token: challenge })).status).toBe(422);
    expect(
      (await finish({ challenge_token: challenge, code: '123456', recovery_code: 'ABCDE-23456' })).status,
    ).toBe(422);
    expect((await finish({ challenge_token: challenge, code: '12345' })).status).toBe(422);
  });

  it('takes each recovery code once', async () => {
    const account = await enrolled();
    const [first, second] = account.recoveryCodes;
    const a = await finish({
      challenge_token: await challengeFor(account.email),
      recovery_code: first!.toLowerCase(),
    });
    expect(a.status).toBe(200);
    const b = await finish({ challenge_token: await challengeFor(account.email), recovery_code: first });
    expect(b.status).toBe(400);
    expect(b.body.message).toBe('Incorrect recovery code: 4 attempts left');
    const c = await finish({
      challenge_token: await challengeFor(account.email),
      recovery_code: second!.replace('-', ''),
    });
    expect(c.status).toBe(200);
    const me = (await api.get('/me', { token: c.body.data.auth_token })).body.data;
    expect(me.second_factors[0].recovery_codes_left).toBe(8);
  });

  it('stores recovery codes that whoever reads the table cannot test guesses against (MACs under a KMS key)', async () => {
    const account = await enrolled();
    for (const code of account.recoveryCodes) expect(code).toMatch(/^[A-HJKMNP-Z2-9]{5}-[A-HJKMNP-Z2-9]{5}$/);
    const item = await factorItem(account.accountId);
    const stored = [...(item.recovery_hashes as Set<string>)];
    expect(stored).toHaveLength(10);
    // What a table reader can do: hash guesses and look for them in the item. The whole space is
    // 31^10 (~49.5 bits) per code with no expiry to race; here the search covers the 29,791 codes
    // that differ from the first code in its last three characters (the first code among them),
    // against the SHA-256 stored until 2026-11-30 (account id as salt) and any string of the item
    // as a salt. It finds the code exactly when the stored form can be computed without the key.
    const salts = [
      account.accountId,
      ...Object.values(item).filter((value): value is string => typeof value === 'string'),
    ];
    const first = canonicalRecoveryCode(account.recoveryCodes[0]!);
    const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
    const matches = (guess: string) =>
      salts.some((salt) =>
        [`${salt}:${guess}`, `${salt}:${account.accountId}:${guess}`].some((input) =>
          stored.includes(createHash('sha256').update(input).digest('base64url')),
        ),
      );
    let recovered: string | undefined;
    for (const a of ALPHABET)
      for (const b of ALPHABET)
        for (const c of ALPHABET) {
          const guess = `${first.slice(0, 7)}${a}${b}${c}`;
          if (recovered === undefined && matches(guess)) recovered = guess;
        }
    expect(recovered).toBeUndefined();
    expect(JSON.stringify([...stored])).not.toContain(first.slice(0, 5));
    // The codes work: step-up (its own function and grant) takes one, POST /auth/mfa another.
    const stepped = await api.post('/auth/step-up', {
      token: account.token,
      body: { password: PASSWORD, recovery_code: account.recoveryCodes[0] },
    });
    expect(stepped.status).toBe(200);
    expect(payload(stepped.body.data.auth_token).amr).toEqual(['mfa']);
    const signedIn = await finish({
      challenge_token: await challengeFor(account.email),
      recovery_code: account.recoveryCodes[1],
    });
    expect(signedIn.status).toBe(200);
    expect((await factorItem(account.accountId)).recovery_hashes.size).toBe(8);
  });

  it('takes a recovery code stored before keyed codes (a plain SHA-256) once, then refuses it', async () => {
    // A set written before 2026-11-30 stays as it is (its codes are not known to re-key): it is
    // checked in its own form until the owner enrols again.
    const account = await enrolled();
    const legacy = ['ABCDE-23456', 'FGHJK-789AB', 'CDEFG-HJKMN'];
    await storeLegacySet(account.accountId, legacy);
    const ok = await finish({
      challenge_token: await challengeFor(account.email),
      recovery_code: 'abcde23456',
    });
    expect(ok.status).toBe(200);
    const again = await finish({
      challenge_token: await challengeFor(account.email),
      recovery_code: legacy[0],
    });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('Incorrect recovery code: 4 attempts left');
    // A code of the keyed set it replaced is no code of this account any more.
    const replaced = await finish({
      challenge_token: await challengeFor(account.email),
      recovery_code: account.recoveryCodes[0],
    });
    expect(replaced.status).toBe(400);
    const stepped = await api.post('/auth/step-up', {
      token: account.token,
      body: { password: PASSWORD, recovery_code: legacy[1] },
    });
    expect(stepped.status).toBe(200);
    expect([...(await factorItem(account.accountId)).recovery_hashes]).toEqual([
      legacyRecoveryCodeHash(account.accountId, legacy[2]!),
    ]);
  });

  it('counts a wrong recovery code against the challenge and the account, keyed or legacy', async () => {
    const account = await enrolled();
    const at = plus(account.enrolledAt, 30);
    const statuses = await asOf(at, async () => {
      const seen: number[] = [];
      const keyed = await challengeFor(account.email);
      for (let j = 0; j < 5; j++)
        seen.push((await finish({ challenge_token: keyed, recovery_code: 'ABCDE-23456' })).status);
      await storeLegacySet(account.accountId, ['FGHJK-789AB']);
      const legacy = await challengeFor(account.email);
      const wrong = await finish({ challenge_token: legacy, recovery_code: 'ABCDE-23456' });
      expect(wrong.body.message).toBe('Incorrect recovery code: 4 attempts left');
      seen.push(wrong.status);
      for (let j = 0; j < 4; j++)
        seen.push((await finish({ challenge_token: legacy, recovery_code: 'ABCDE-23456' })).status);
      // The account's 10 are spent: even the right recovery code waits, and is not used up.
      seen.push(
        (await finish({ challenge_token: await challengeFor(account.email), recovery_code: 'FGHJK-789AB' }))
          .status,
      );
      return seen;
    });
    expect(statuses).toEqual([...Array(10).fill(400), 429]);
    expect((await factorItem(account.accountId)).recovery_hashes.size).toBe(1);
  });

  it('challenges a Google sign-in too', async () => {
    const id = unique();
    const google = (sub: string, email: string) =>
      api.post(
        '/onboarding/account/google',
        from({
          body: { google_token: mintGoogleIdToken({ email, sub }), handle: `g_${id}`, agreed_to_terms: true },
        }),
      );
    const email = `g.${id}@example.com`;
    const created = await google(`g-${id}`, email);
    expect(created.status).toBe(201);
    const token = created.body.data.auth_token;
    const start = await api.post('/me/mfa/totp', { token, body: {} });
    const secret = new Uint8Array(Secret.fromBase32(start.body.data.secret).buffer);
    const now = new Date();
    const confirmed = await asOf(now, () =>
      api.post('/me/mfa/totp/confirm', { token, body: { code: codeOf(secret, now) } }),
    );
    expect(confirmed.status).toBe(200);

    const again = await google(`g-${id}`, email);
    expect(again.status).toBe(202);
    expect(again.body.data.auth_token).toBeUndefined();
    const next = plus(now, 30);
    const done = await asOf(next, () =>
      finish({ challenge_token: again.body.data.challenge_token, code: codeOf(secret, next) }),
    );
    expect(done.status).toBe(200);
  });
});

describe('step-up with a second factor', () => {
  it('asks for the code besides the password, and removing the factor needs it', async () => {
    const account = await enrolled();
    // A token whose sign-in was 11 minutes ago: too old for a sensitive action.
    const { token: stale } = await issueAccessToken(account.accountId, new Date(), {
      authTime: plus(new Date(), -11 * 60),
      secondFactor: true,
    });
    const refused = await api.delete('/me/mfa/totp', { token: stale });
    expect(refused.status).toBe(401);
    expect(refused.body.reason).toBe('step_up_required');
    // The refusal says what the step-up takes: a caller with a factor sends its code too (the npm
    // start walk-through of issue 38 sent the password alone, as the message then said, and got 403).
    expect(refused.body.message).toMatch(/password \(and, if the account has a second factor, its code\)/);

    const passwordOnly = await api.post('/auth/step-up', { token: stale, body: { password: PASSWORD } });
    expect(passwordOnly.status).toBe(403);
    expect(passwordOnly.body.message).toContain('second factor');
    const wrongCode = await api.post('/auth/step-up', {
      token: stale,
      body: { password: PASSWORD, code: '000000' },
    });
    expect(wrongCode.status).toBe(403);
    const next = plus(account.enrolledAt, 30);
    const stepped = await asOf(next, () =>
      api.post('/auth/step-up', {
        token: stale,
        body: { password: PASSWORD, code: codeOf(account.secret, next) },
      }),
    );
    expect(stepped.status).toBe(200);
    expect(payload(stepped.body.data.auth_token).amr).toEqual(['mfa']);

    const removed = await api.delete('/me/mfa/totp', { token: stepped.body.data.auth_token });
    expect(removed.status).toBe(204);
    // The owner hears of it, as of a password or address change.
    expect((await readMailbox(account.email)).at(-1)?.subject).toBe('Two-step verification was turned off');
    expect((await api.delete('/me/mfa/totp', { token: stepped.body.data.auth_token })).status).toBe(404);
    // Without the factor, sign-in gives tokens again.
    expect((await logIn(account.email)).status).toBe(200);
  });

  it("a recent token that did not pass the factor cannot remove it (the outside probe's finding)", async () => {
    // A sign-in from before the enrolment: its token is fresh (auth_time now) but has no `amr`.
    const account = await signUp();
    const start = await api.post('/me/mfa/totp', { token: account.token, body: {} });
    const secret = new Uint8Array(Secret.fromBase32(start.body.data.secret).buffer);
    // A pending factor (never confirmed) goes with the token that started it.
    expect((await api.delete('/me/mfa/totp', { token: account.token })).status).toBe(204);
    const again = await api.post('/me/mfa/totp', { token: account.token, body: {} });
    const confirmedSecret = new Uint8Array(Secret.fromBase32(again.body.data.secret).buffer);
    expect(confirmedSecret).not.toEqual(secret);
    const at = new Date();
    const confirm = await asOf(at, () =>
      api.post('/me/mfa/totp/confirm', { token: account.token, body: { code: codeOf(confirmedSecret, at) } }),
    );
    expect(confirm.status).toBe(200);

    const refused = await api.delete('/me/mfa/totp', { token: account.token });
    expect(refused.status).toBe(401);
    expect(refused.body.reason).toBe('step_up_required');
    expect(refused.headers.get('www-authenticate')).toContain('insufficient_user_authentication');
    expect((await logIn(account.email)).status).toBe(202); // the factor is still there
    // Nor change the password or the email, or delete the account (each was a 200/202).
    const sensitive = [
      api.post('/me/password', {
        token: account.token,
        body: { current_password: PASSWORD, new_password: 'another-horse-2' },
      }),
      api.post('/me/email', {
        token: account.token,
        body: { new_email: `moved.${unique()}@example.com`, current_password: PASSWORD },
      }),
      api.delete('/me', { token: account.token, body: { confirm: account.email } }),
    ];
    for (const res of await Promise.all(sensitive)) {
      expect(res.status).toBe(401);
      expect(res.body.reason).toBe('step_up_required');
    }
    expect((await logIn(account.email)).status).toBe(202); // same password, not deleted
    // The confirmation's token passed it: that one removes it.
    expect((await api.delete('/me/mfa/totp', { token: confirm.body.data.auth_token })).status).toBe(204);
    expect((await logIn(account.email)).status).toBe(200);
  });

  it("the studio's step-up routes refuse a recent token that did not pass the factor too", async () => {
    // A creator's sign-up token (fresh, no `amr`) showed the stream key before the enrolment and,
    // once the factor was confirmed, still showed and rotated it, and set the price (the probe's gap).
    const creator = await studioCreator(api);
    expect((await api.post('/studio/channel', { token: creator.token })).status).toBe(201);
    const start = await api.post('/me/mfa/totp', { token: creator.token, body: {} });
    const secret = new Uint8Array(Secret.fromBase32(start.body.data.secret).buffer);
    const at = new Date();
    const confirm = await asOf(at, () =>
      api.post('/me/mfa/totp/confirm', { token: creator.token, body: { code: codeOf(secret, at) } }),
    );
    expect(confirm.status).toBe(200);
    const token = creator.token;
    const refused = await Promise.all([
      api.get('/studio/channel', { token }),
      api.post('/studio/channel', { token }),
      api.post('/studio/channel/stream-key/rotate', { token }),
      api.post('/studio/payouts/onboarding', { token }),
      api.put('/studio/plan', { token, body: { price: 7.5, currency: 'EUR', interval: 'year' } }),
    ]);
    expect(refused.map((res) => [res.status, res.body.reason])).toEqual(
      Array(5).fill([401, 'step_up_required']),
    );
    // The confirmation's token passed it.
    expect((await api.get('/studio/channel', { token: confirm.body.data.auth_token })).status).toBe(200);
  });
});

describe('a step-up is bound to the factor it passed', () => {
  it('a session that passed the old authenticator cannot remove or act under a new one (was 204: the removal and re-enrolment did not count)', async () => {
    const account = await enrolled();
    // Another sign-in (a thief's, say) passes the factor now enrolled.
    const challenge = await challengeFor(account.email);
    const at = plus(account.enrolledAt, 30);
    const thief = await asOf(at, () =>
      finish({ challenge_token: challenge, code: codeOf(account.secret, at) }),
    );
    expect(thief.status).toBe(200);
    expect(payload(thief.body.data.auth_token).amr).toEqual(['mfa']);
    // The owner replaces the authenticator: removes it and enrols a new one.
    expect((await api.delete('/me/mfa/totp', { token: account.token })).status).toBe(204);
    const start = await api.post('/me/mfa/totp', { token: account.token, body: {} });
    expect(start.status).toBe(201);
    const secret = new Uint8Array(Secret.fromBase32(start.body.data.secret).buffer);
    const now = new Date();
    const confirm = await asOf(now, () =>
      api.post('/me/mfa/totp/confirm', { token: account.token, body: { code: codeOf(secret, now) } }),
    );
    expect(confirm.status).toBe(200);

    // The thief's token (and a refreshed one) passed the old factor only: it is recent, yet
    // proves nothing about the new one.
    const refreshed = await api.post('/auth/refresh', {
      body: { refresh_token: thief.body.data.refresh_token },
    });
    expect(refreshed.status).toBe(200);
    for (const token of [thief.body.data.auth_token, refreshed.body.data.auth_token]) {
      const refused = [
        await api.delete('/me/mfa/totp', { token }),
        await api.post('/me/mfa/totp/recovery-codes', { token }),
        await api.post('/me/password', {
          token,
          body: { current_password: PASSWORD, new_password: 'another-horse-2' },
        }),
      ];
      expect(refused.map((res) => [res.status, res.body?.reason])).toEqual(
        Array(3).fill([401, 'step_up_required']),
      );
    }
    expect((await logIn(account.email)).status).toBe(202); // the new factor is still there
    // A step-up with the new factor's code binds the thief's session to it (here: the owner's own
    // confirmation token, which passed it, removes it).
    expect((await api.delete('/me/mfa/totp', { token: confirm.body.data.auth_token })).status).toBe(204);
  });
});

describe('new recovery codes (POST /me/mfa/totp/recovery-codes)', () => {
  const regenerate = (token: string) => api.post('/me/mfa/totp/recovery-codes', { token });
  /** The stored set as the keyed forms of `codes` would be. */
  const keyedSet = async (accountId: string, codes: readonly string[]) =>
    new Set(await Promise.all(codes.map((code) => keyedRecoveryCode(accountId, code))));
  const storedSet = async (accountId: string) =>
    new Set((await factorItem(accountId)).recovery_hashes as Set<string>);

  it('replaces the whole set with 10 new keyed codes: an old code no longer signs in, a new one does', async () => {
    const account = await enrolled();
    const res = await regenerate(account.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const { recovery_codes: codes, factor } = res.body.data;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) {
      expect(code).toMatch(/^[A-HJKMNP-Z2-9]{5}-[A-HJKMNP-Z2-9]{5}$/);
      expect(account.recoveryCodes).not.toContain(code);
    }
    expect(factor).toMatchObject({
      type: 'totp',
      label: 'Phone',
      recovery_codes_left: 10,
      recovery_codes_outdated: false,
    });
    const me = (await api.get('/me', { token: account.token })).body.data;
    expect(me.second_factors).toEqual([factor]);
    // The owner is told, and the notice carries no code.
    const notice = (await readMailbox(account.email)).at(-1);
    expect(notice?.subject).toBe('New recovery codes were made');
    for (const code of codes) expect(notice?.text).not.toContain(code);
    // Exactly the new codes are stored, keyed; none of the old set is left.
    expect(await storedSet(account.accountId)).toEqual(await keyedSet(account.accountId, codes));

    const old = await finish({
      challenge_token: await challengeFor(account.email),
      recovery_code: account.recoveryCodes[0],
    });
    expect([old.status, old.body.message]).toEqual([400, 'Incorrect recovery code: 4 attempts left']);
    const signedIn = await finish({
      challenge_token: await challengeFor(account.email),
      recovery_code: codes[0],
    });
    expect(signedIn.status).toBe(200);
    expect(
      (await api.get('/me', { token: account.token })).body.data.second_factors[0].recovery_codes_left,
    ).toBe(9);
  });

  it('needs a recent step-up that passed the factor, as the removal does', async () => {
    const account = await enrolled();
    const before = await storedSet(account.accountId);
    // A sign-in 11 minutes ago (through the factor), and a fresh sign-in that did not pass it.
    const { token: stale } = await issueAccessToken(account.accountId, new Date(), {
      authTime: plus(new Date(), -11 * 60),
      secondFactor: true,
    });
    const { token: noFactor } = await issueAccessToken(account.accountId, new Date(), {
      authTime: new Date(),
      secondFactor: false,
    });
    for (const token of [stale, noFactor]) {
      const refused = await regenerate(token);
      expect([refused.status, refused.body.reason]).toEqual([401, 'step_up_required']);
      expect(refused.body.recovery_codes).toBeUndefined();
    }
    // The step-up itself refuses a missing or wrong code (403), and its refusal passes nothing.
    for (const proof of [{}, { code: '000000' }, { recovery_code: 'ABCDE-23456' }]) {
      const stepUp = await api.post('/auth/step-up', {
        token: stale,
        body: { password: PASSWORD, ...proof },
      });
      expect(stepUp.status).toBe(403);
    }
    expect((await regenerate(stale)).status).toBe(401);
    expect(await storedSet(account.accountId)).toEqual(before);
    // A step-up with a recovery code (the authenticator lost) passes, and the set is replaced.
    const stepped = await api.post('/auth/step-up', {
      token: stale,
      body: { password: PASSWORD, recovery_code: account.recoveryCodes[0] },
    });
    expect(stepped.status).toBe(200);
    const res = await regenerate(stepped.body.data.auth_token);
    expect(res.status).toBe(200);
    expect(await storedSet(account.accountId)).toEqual(
      await keyedSet(account.accountId, res.body.data.recovery_codes),
    );
  });

  it('answers 404 without an active factor, and 401 to a signed-out session', async () => {
    const account = await signUp();
    const none = await regenerate(account.token);
    expect([none.status, none.body.message]).toEqual([404, 'No second factor is enrolled']);
    // An enrolment not confirmed yet has no codes to replace.
    expect((await api.post('/me/mfa/totp', { token: account.token, body: {} })).status).toBe(201);
    expect((await regenerate(account.token)).status).toBe(404);

    const enrolledAccount = await enrolled();
    const before = await storedSet(enrolledAccount.accountId);
    const signedOut = await api.delete(`/me/sessions/${payload(enrolledAccount.token).sid}`, {
      token: enrolledAccount.token,
    });
    expect(signedOut.status).toBe(204);
    const res = await regenerate(enrolledAccount.token);
    expect([res.status, res.body.message]).toEqual([401, 'This session was signed out: sign in again']);
    expect(await storedSet(enrolledAccount.accountId)).toEqual(before);
  });

  it('flags a set stored before keyed codes in GET /me until it is replaced', async () => {
    const account = await enrolled();
    expect((await api.get('/me', { token: account.token })).body.data.second_factors[0]).toMatchObject({
      recovery_codes_left: 10,
      recovery_codes_outdated: false,
    });
    const legacy = ['ABCDE-23456', 'FGHJK-789AB', 'CDEFG-HJKMN'];
    await storeLegacySet(account.accountId, legacy);
    expect((await api.get('/me', { token: account.token })).body.data.second_factors[0]).toMatchObject({
      recovery_codes_left: 3,
      recovery_codes_outdated: true,
    });
    expect((await buildExportDocument(account.accountId, new Date())).second_factors[0]).toMatchObject({
      recovery_codes_outdated: true,
    });
    const res = await regenerate(account.token);
    expect(res.status).toBe(200);
    expect(res.body.data.factor).toMatchObject({ recovery_codes_left: 10, recovery_codes_outdated: false });
    expect((await api.get('/me', { token: account.token })).body.data.second_factors[0]).toMatchObject({
      recovery_codes_left: 10,
      recovery_codes_outdated: false,
    });
    const old = await finish({
      challenge_token: await challengeFor(account.email),
      recovery_code: legacy[0],
    });
    expect(old.status).toBe(400);
  });

  it('lets one of two regenerations of the same read win; the other writes nothing (409)', async () => {
    // Two regenerations that read the same set, as two parallel requests may: the write is
    // conditional on the set read, so the later one is refused and its codes never stored.
    const account = await enrolled();
    const read = (await getTotpFactor(account.accountId))!;
    const first = await newRecoveryCodes(account.accountId);
    const second = await newRecoveryCodes(account.accountId);
    expect(await replaceRecoveryCodes(read, first.stored)).toBe(true);
    expect(await replaceRecoveryCodes(read, second.stored)).toBe(false);
    expect(await storedSet(account.accountId)).toEqual(new Set(first.stored));
    // A code used between the read and the write changes the set: refused as well.
    const reread = (await getTotpFactor(account.accountId))!;
    const used = await finish({
      challenge_token: await challengeFor(account.email),
      recovery_code: first.codes[0],
    });
    expect(used.status).toBe(200);
    expect(await replaceRecoveryCodes(reread, second.stored)).toBe(false);
    expect((await storedSet(account.accountId)).size).toBe(9);

    // Over HTTP, in parallel: each answer is 200 or 409, and the stored set is exactly the codes of
    // one 200 answer (never a mix); whatever a 409 made is stored nowhere.
    const answers = await Promise.all([
      regenerate(account.token),
      regenerate(account.token),
      regenerate(account.token),
    ]);
    const statuses = answers.map((res) => res.status);
    expect(statuses.every((status) => status === 200 || status === 409)).toBe(true);
    expect(statuses).toContain(200);
    const stored = await storedSet(account.accountId);
    const matching = [];
    for (const res of answers.filter((answer) => answer.status === 200))
      if (
        JSON.stringify([...(await keyedSet(account.accountId, res.body.data.recovery_codes))].sort()) ===
        JSON.stringify([...stored].sort())
      )
        matching.push(res);
    expect(matching).toHaveLength(1);
    for (const res of answers.filter((answer) => answer.status === 409))
      expect(res.body.message).toContain('changed while new ones were made');
  });

  it('is limited to 10 an hour per account (429 with Retry-After)', async () => {
    const account = await enrolled();
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await regenerate(account.token)).status);
    const over = await regenerate(account.token);
    expect([...statuses, over.status]).toEqual([...Array(10).fill(200), 429]);
    expect(over.body.reason).toBe('rate_limit');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
