import { createHash, randomUUID } from 'node:crypto';
import { db } from '../../shared/db/client.ts';
import { GetCommand, PutCommand } from '../../shared/db/document.ts';
import { tableName } from '../../shared/db/table.ts';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { clock } from '../../shared/clock.ts';
import { VERIFICATION_CODE_TTL_SECONDS } from '../../shared/identity/email-verification.ts';
import { mintGoogleIdToken } from '../../scripts/local/local-idp.ts';
import type { SQSEvent } from 'aws-lambda';
import { handler as recordMailFeedback } from '../../functions/mail/record-feedback.ts';
import { mailFeedbackRow } from '../../functions/mail/workers.ts';
import { functionContext, runAsFunction } from '../../scripts/local/aws.ts';
import { LOCAL_MAIL, readMailbox } from '../../scripts/local/ses.ts';
import type { SignedUpAccount } from '../../shared/identity/schemas.ts';
import { fromNewAddress as from, type TestApi, testApi } from '../support/api.ts';

let api: TestApi;
beforeAll(async () => {
  api = await testApi();
});

const unique = () => randomUUID().replace(/-/g, '').slice(0, 12);

const signUp = async (email = `maker.${unique()}@example.com`, password = 'correct-horse-1') => {
  const res = await api.post(
    '/onboarding/account/create',
    from({
      body: { email, password, creator_name: 'Maker', handle: `m_${unique()}`, agreed_to_terms: true },
    }),
  );
  expect(res.status).toBe(201);
  return res.body.data as SignedUpAccount;
};

/** The codes the dev mailbox received for `email`, oldest first. */
const codesFor = async (email: string): Promise<string[]> =>
  (await readMailbox(email)).map((mail) => {
    const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
    if (!code) throw new Error(`no code in ${mail.text}`);
    return code;
  });
const latestCode = async (email: string) => (await codesFor(email)).at(-1)!;
/** A 6-digit code that is not `code`. */
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

const verify = (token: string, code: unknown) => api.post('/auth/email/verify', { token, body: { code } });
const resend = (token: string) => api.post('/auth/email/verification', { token });
const google = (email: string, options: { sub?: string; handle?: string } = {}) =>
  api.post(
    '/onboarding/account/google',
    from({
      body: {
        google_token: mintGoogleIdToken({ email, sub: options.sub }),
        agreed_to_terms: true,
        ...(options.handle ? { handle: options.handle } : {}),
      },
    }),
  );

describe('email verification', () => {
  it('sign-up starts unverified and mails one 6-digit code to the dev mailbox', async () => {
    const account = await signUp();
    expect(account.email_verified).toBe(false);
    const codes = await codesFor(account.email);
    expect(codes).toHaveLength(1);
    expect(codes[0]).toMatch(/^\d{6}$/);
    const [mail] = await readMailbox(account.email);
    expect(mail!.to).toBe(account.email);
  });

  it('verifies with the mailed code once; the account then reads verified everywhere', async () => {
    const account = await signUp();
    const code = await latestCode(account.email);
    const ok = await verify(account.auth_token, code);
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({
      creator_id: account.creator_id,
      email: account.email,
      email_verified: true,
      email_verified_at: expect.any(String),
    });
    // Single use: the same code again is not a second success.
    const replay = await verify(account.auth_token, code);
    expect(replay.status).toBe(409);
    expect(replay.body).toEqual({ status: 'error', code: 409, message: 'Email is already verified' });
    expect((await resend(account.auth_token)).status).toBe(409);
    const login = await api.post(
      '/auth/login',
      from({ body: { email: account.email, password: 'correct-horse-1' } }),
    );
    expect(login.body.data.email_verified).toBe(true);
  });

  it('stores a code that whoever reads the table cannot recover offline (a MAC under a KMS key)', async () => {
    const account = await signUp();
    const code = await latestCode(account.email);
    const { Item: item } = await db.send(
      new GetCommand({
        TableName: tableName(),
        Key: { PK: `ACCOUNT#${account.creator_id}`, SK: 'EMAIL_VERIFICATION' },
        ConsistentRead: true,
      }),
    );
    // What a table reader can do: try every 6-digit code against what the item stores about the
    // code (the salted SHA-256 stored until 2026-11-30 gave it up in seconds). In slices, so
    // the API this worker serves keeps answering.
    const { PK: _pk, SK: _sk, entity: _e, account_id: _a, email: _m, created_at: _c, ...stored } = item ?? {};
    const fields = Object.values(stored).filter((value): value is string => typeof value === 'string');
    const matches = (guess: string) =>
      fields.some((salt) =>
        fields.includes(
          createHash('sha256').update(`${salt}:${account.creator_id}:${guess}`).digest('base64url'),
        ),
      );
    let recovered: string | undefined;
    for (let start = 0; start < 1_000_000 && recovered === undefined; start += 20_000) {
      for (let n = start; n < start + 20_000 && recovered === undefined; n++)
        if (matches(String(n).padStart(6, '0'))) recovered = String(n).padStart(6, '0');
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(recovered).toBeUndefined();
    expect(item?.code_mac).toEqual(expect.any(String));
    expect(JSON.stringify(item)).not.toContain(code);
    expect((await verify(account.auth_token, code)).status).toBe(200);
  }, 60_000);

  it('refuses, with 410 and "request a new one", a code stored as a salted SHA-256 before keyed codes', async () => {
    const account = await signUp();
    const code = '123456';
    const salt = 'legacy-salt';
    await db.send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          PK: `ACCOUNT#${account.creator_id}`,
          SK: 'EMAIL_VERIFICATION',
          entity: 'email_verification',
          account_id: account.creator_id,
          email: account.email,
          code_salt: salt,
          code_hash: createHash('sha256').update(`${salt}:${account.creator_id}:${code}`).digest('base64url'),
          attempts: 0,
          created_at: new Date().toISOString(),
          expires_at_epoch: Math.floor(Date.now() / 1000) + 600,
        },
      }),
    );
    const res = await verify(account.auth_token, code);
    expect([res.status, res.body.message]).toEqual([
      410,
      'No valid verification code: it expired, was already used or had too many wrong attempts; request a new one (POST /auth/email/verification)',
    ]);
  });

  it('lets exactly one of parallel submissions of the right code use it', async () => {
    const account = await signUp();
    const code = await latestCode(account.email);
    const results = await Promise.all(Array.from({ length: 4 }, () => verify(account.auth_token, code)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.every((s) => s === 200 || s === 409 || s === 410)).toBe(true);
  });

  it('allows 5 attempts per code: wrong guesses count down, then even the right code is gone (410)', async () => {
    const account = await signUp();
    const code = await latestCode(account.email);
    const messages: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await verify(account.auth_token, wrong(code));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ status: 'error', code: 400 });
      messages.push(res.body.message);
    }
    expect(messages[0]).toBe('Incorrect verification code: 4 attempts left');
    expect(messages[3]).toBe('Incorrect verification code: 1 attempt left');
    expect(messages[4]).toMatch(/no attempts left/);
    const right = await verify(account.auth_token, code);
    expect(right.status).toBe(410);
    expect(right.body.message).toMatch(/request a new one/);
    // A new code restores the budget and works; the old one does not.
    expect((await resend(account.auth_token)).status).toBe(200);
    const fresh = await latestCode(account.email);
    if (fresh !== code) expect((await verify(account.auth_token, code)).status).toBe(400);
    expect((await verify(account.auth_token, fresh)).status).toBe(200);
  });

  it('counts parallel guesses against the one budget: at most 5 are compared', async () => {
    const account = await signUp();
    const code = await latestCode(account.email);
    // 9 parallel guesses and the right code after them: 10 requests, the route's budget a minute.
    const results = await Promise.all(
      Array.from({ length: 9 }, () => verify(account.auth_token, wrong(code))),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 400)).toHaveLength(5);
    expect(statuses.filter((s) => s === 410)).toHaveLength(4);
    expect((await verify(account.auth_token, code)).status).toBe(410);
  });

  it(`expires a code after ${VERIFICATION_CODE_TTL_SECONDS / 60} minutes`, async () => {
    const account = await signUp();
    const code = await latestCode(account.email);
    const realNow = clock.now;
    const later = new Date(Date.now() + VERIFICATION_CODE_TTL_SECONDS * 1000 + 1000);
    clock.now = () => later;
    onTestFinished(() => {
      clock.now = realNow;
    });
    const expired = await verify(account.auth_token, code);
    expect(expired.status).toBe(410);
    clock.now = realNow;
    expect((await resend(account.auth_token)).status).toBe(200);
    expect((await verify(account.auth_token, await latestCode(account.email))).status).toBe(200);
  });

  it('a resent code replaces the previous one', async () => {
    const account = await signUp();
    const first = await latestCode(account.email);
    const sent = await resend(account.auth_token);
    expect(sent.status).toBe(200);
    expect(sent.body.data).toEqual({
      email: account.email,
      expires_at: expect.any(String),
      max_attempts: 5,
    });
    const expiresIn = Date.parse(sent.body.data.expires_at) - Date.now();
    expect(expiresIn).toBeGreaterThan((VERIFICATION_CODE_TTL_SECONDS - 60) * 1000);
    expect(expiresIn).toBeLessThanOrEqual(VERIFICATION_CODE_TTL_SECONDS * 1000);
    const codes = await codesFor(account.email);
    expect(codes).toHaveLength(2);
    const second = codes[1]!;
    if (second !== first) expect((await verify(account.auth_token, first)).status).toBe(400);
    expect((await verify(account.auth_token, second)).status).toBe(200);
  });

  it('rate-limits resends to 5 a day per account', async () => {
    const account = await signUp();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await resend(account.auth_token)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect(await codesFor(account.email)).toHaveLength(6); // the sign-up code and 5 resends
  });

  it('answers 422 for a malformed code, 400 for malformed JSON and 401 without a token', async () => {
    const account = await signUp();
    for (const code of [undefined, '', '12345', '1234567', 'abcdef', '12 456', 123456, null]) {
      const res = await api.post('/auth/email/verify', {
        token: account.auth_token,
        body: code === undefined ? {} : { code },
      });
      expect(res.status, String(code)).toBe(422);
      expect(res.body).toMatchObject({ status: 'error', code: 422 });
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['code']);
    }
    const malformed = await api.post('/auth/email/verify', {
      token: account.auth_token,
      rawBody: '{"code":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect((await api.post('/auth/email/verify', { body: { code: '123456' } })).status).toBe(401);
    expect((await api.post('/auth/email/verification')).status).toBe(401);
    // None of these spent an attempt: the mailed code still works.
    expect((await verify(account.auth_token, ` ${await latestCode(account.email)} `)).status).toBe(200);
  });
});

describe('mail through SES (the local platform runs the SES v2 stand-in)', () => {
  /** An SES event as the feedback queue delivers it (EventBridge document in the message body). */
  const feedback = (detail: Record<string, unknown>): SQSEvent =>
    ({
      Records: [
        {
          messageId: randomUUID(),
          body: JSON.stringify({
            source: 'aws.ses',
            'detail-type': detail.eventType === 'Bounce' ? 'Email Bounced' : 'Email Complaint Received',
            detail: { ...detail, mail: { tags: { 'ses:configuration-set': [LOCAL_MAIL.configurationSet] } } },
          }),
        },
      ],
    }) as unknown as SQSEvent;
  const deliverFeedback = (event: SQSEvent) =>
    runAsFunction(functionContext(mailFeedbackRow), () => recordMailFeedback(event));
  const bounce = (email: string, bounceType: string) =>
    feedback({
      eventType: 'Bounce',
      bounce: {
        bounceType,
        timestamp: new Date().toISOString(),
        bouncedRecipients: [{ emailAddress: email }],
      },
    });

  it("a sign-up's code arrives through SendEmail, from the sending identity, through the configuration set", async () => {
    const account = await signUp();
    const [mail] = await readMailbox(account.email);
    expect(mail).toMatchObject({
      to: account.email,
      from: LOCAL_MAIL.from,
      subject: 'Your verification code',
      configuration_set: LOCAL_MAIL.configurationSet,
      message_id: expect.stringMatching(/^local-/),
    });
    // POST /auth/email/verification sends too (it answered 503 on AWS before SES).
    expect((await resend(account.auth_token)).status).toBe(200);
    expect(await readMailbox(account.email)).toHaveLength(2);
  });

  it('a permanent bounce marks the address undeliverable: no more mail, and the resend says why (409)', async () => {
    const account = await signUp();
    expect(await deliverFeedback(bounce(account.email.toUpperCase(), 'Permanent'))).toEqual({
      batchItemFailures: [],
    });
    const res = await resend(account.auth_token);
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/bounced or was reported as spam/);
    expect(await readMailbox(account.email)).toHaveLength(1);
  });

  it('a transient bounce changes nothing; a complaint suppresses; a sign-up with a suppressed address gets no mail', async () => {
    const soft = await signUp();
    await deliverFeedback(bounce(soft.email, 'Transient'));
    expect((await resend(soft.auth_token)).status).toBe(200);

    const email = `complains.${unique()}@example.com`;
    await deliverFeedback(
      feedback({
        eventType: 'Complaint',
        complaint: { timestamp: new Date().toISOString(), complainedRecipients: [{ emailAddress: email }] },
      }),
    );
    const account = await signUp(email);
    expect(account.email_verified).toBe(false);
    expect(await readMailbox(email)).toEqual([]);
  });

  it('drops a message that is not an SES event instead of failing it forever', async () => {
    const junk = {
      Records: [{ messageId: 'm1', body: '{"detail":{"eventType":"Open"}}' }],
    } as unknown as SQSEvent;
    expect(await deliverFeedback(junk)).toEqual({ batchItemFailures: [] });
  });
});

describe('Google sign-in and unverified accounts (pre-account takeover)', () => {
  it("an attacker's unverified password account never becomes the victim's Google account", async () => {
    const victim = `victim.${unique()}@gmail.com`;
    // The attacker registers the victim's address first and keeps the password.
    const attacker = await signUp(victim, 'attacker-password-1');
    expect(attacker.email_verified).toBe(false);
    // The victim signs in with Google: no session for the attacker's account.
    const attempt = await google(victim, { handle: `v_${unique()}` });
    expect(attempt.status).toBe(409);
    expect(attempt.body).toEqual({
      status: 'error',
      code: 409,
      message: expect.stringMatching(/not verified.*verify the email/),
    });
    expect(JSON.stringify(attempt.body)).not.toMatch(/auth_token|refresh_token|creator_id/);
    // The code went to the victim's mailbox; the attacker can only guess, and runs out.
    for (let i = 0; i < 5; i++) {
      const guess = await verify(attacker.auth_token, String(100000 + i));
      if (guess.status === 200) throw new Error('guessed the code'); // 5 in 10^6: effectively never
      expect(guess.status).toBe(400);
    }
    expect((await verify(attacker.auth_token, await latestCode(victim))).status).toBe(410);
    // The attacker's password still opens only the attacker's own, unverified, unlinked account…
    const login = await api.post(
      '/auth/login',
      from({ body: { email: victim, password: 'attacker-password-1' } }),
    );
    expect(login.status).toBe(200);
    expect(login.body.data).toMatchObject({ creator_id: attacker.creator_id, email_verified: false });
    // …and the victim's Google identity was not linked to it: Google sign-in still refuses.
    expect((await google(victim)).status).toBe(409);
  });

  it('links Google to a password account once its owner verified the email', async () => {
    const account = await signUp();
    expect((await verify(account.auth_token, await latestCode(account.email))).status).toBe(200);
    const sub = `google-${unique()}`;
    const linked = await google(account.email, { sub });
    expect(linked.status).toBe(200);
    expect(linked.body.data).toMatchObject({
      creator_id: account.creator_id,
      is_new_account: false,
      email_verified: true,
      auth_token: expect.any(String),
    });
    // Signed in by the Google subject from now on; another Google account with the address is not.
    expect((await google(account.email, { sub })).body.data.creator_id).toBe(account.creator_id);
    const other = await google(account.email, { sub: `google-${unique()}` });
    expect(other.status).toBe(409);
    expect(other.body.message).toMatch(/linked to another Google account/);
  });

  it('accounts created by Google are verified and need no code', async () => {
    const email = `g.${unique()}@gmail.com`;
    const created = await google(email, { handle: `g_${unique()}` });
    expect(created.status).toBe(201);
    expect(created.body.data.email_verified).toBe(true);
    expect(await readMailbox(email)).toEqual([]);
    const token = created.body.data.auth_token;
    expect((await resend(token)).status).toBe(409);
    expect((await verify(token, '123456')).status).toBe(409);
  });

  it('refuses a Google token whose email Google did not verify', async () => {
    const account = await signUp();
    expect((await verify(account.auth_token, await latestCode(account.email))).status).toBe(200);
    for (const email_verified of [false, undefined]) {
      const res = await api.post(
        '/onboarding/account/google',
        from({
          body: {
            google_token: mintGoogleIdToken({ email: account.email }, { email_verified }),
            agreed_to_terms: true,
          },
        }),
      );
      expect(res.status, String(email_verified)).toBe(401);
    }
  });
});
