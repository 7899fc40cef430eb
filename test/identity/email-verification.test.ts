import { createHash, createHmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  codeMatches,
  mailVerificationCode,
  newVerificationCode,
  VERIFICATION_CODE_TTL_SECONDS,
} from '../../shared/identity/email-verification.ts';
import {
  getMailer,
  MAIL_MAX_ATTEMPTS,
  MailDeliveryUnavailableError,
  sesMailer,
  UndeliverableAddressError,
  useMailer,
} from '../../shared/mail/mailer.ts';
import { LOCAL_MAIL, readMailbox, type SesStandIn, startSesStandIn } from '../../scripts/local/ses.ts';
import { logger } from '../../shared/observability/index.ts';
import { localOneTimeCodeKey } from '../../scripts/local/local-key.ts';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  useMailer(undefined);
});

describe('verification codes', () => {
  const now = new Date('2026-11-23T10:00:00Z');

  it('are 6 random digits, stored only as a MAC under the one-time-code key, bound to the account and purpose, expiring in 15 minutes', async () => {
    const { code, record } = await newVerificationCode('acc_1', 'a@example.com', now);
    expect(code).toMatch(/^\d{6}$/);
    expect(JSON.stringify(record)).not.toContain(code);
    expect(record).toMatchObject({ account_id: 'acc_1', email: 'a@example.com', attempts: 0 });
    expect(Object.keys(record)).not.toContain('code_salt');
    expect(record.expires_at_epoch).toBe(now.getTime() / 1000 + VERIFICATION_CODE_TTL_SECONDS);
    // Keyed: the MAC is HMAC-SHA-256 under the (local) KMS key, nothing a table reader can recompute.
    const message = `one-time-code:v1:EMAIL_VERIFICATION:acc_1:${code}`;
    expect(record.code_mac).toBe(
      createHmac('sha256', localOneTimeCodeKey().secret).update(message).digest('base64url'),
    );
    expect(record.code_mac).not.toBe(createHash('sha256').update(message).digest('base64url'));
    expect(await codeMatches(record, code)).toBe(true);
    expect(await codeMatches(record, String((Number(code) + 1) % 1_000_000).padStart(6, '0'))).toBe(false);
    expect(await codeMatches({ ...record, account_id: 'acc_2' }, code)).toBe(false);
    expect(await codeMatches({ ...record, purpose: 'PASSWORD_RESET' }, code)).toBe(false);
    expect(await codeMatches({ ...record, code_mac: 'short' }, code)).toBe(false);
    const codes = new Set(
      await Promise.all(
        Array.from({ length: 50 }, async () => (await newVerificationCode('acc_1', 'a', now)).code),
      ),
    );
    expect(codes.size).toBeGreaterThan(40);
  });
});

describe('the mailer (SES v2 through the stand-in the local platform runs)', () => {
  let ses: SesStandIn;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mailbox-'));
    ses = await startSesStandIn({ dir: () => dir });
  });
  afterAll(async () => {
    await ses.stop();
    await rm(dir, { recursive: true, force: true });
  });
  /** The environment a function with `mailer` gets locally: its settings and the endpoint. */
  const mailerEnvironment = () => {
    vi.stubEnv('AWS_ENDPOINT_URL_SESV2', ses.endpoint);
    vi.stubEnv('AWS_REGION', 'local');
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'local');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'local');
    vi.stubEnv('MAIL_FROM', LOCAL_MAIL.from);
    vi.stubEnv('MAIL_CONFIGURATION_SET', LOCAL_MAIL.configurationSet);
  };
  const notSuppressed = async () => false;
  const mailer = () => sesMailer({ ...settings(), suppressed: notSuppressed });
  const settings = () => ({ from: LOCAL_MAIL.from, configurationSet: LOCAL_MAIL.configurationSet });

  it('sends with SendEmail through the configuration set; the stand-in files it per recipient', async () => {
    mailerEnvironment();
    await mailer().send({ to: 'A.B@Example.com', subject: 's1', text: 'one' });
    await mailer().send({ to: 'a.b@example.com', subject: 's2', text: 'two' });
    const mails = await readMailbox('a.b@example.com', dir);
    expect(mails.map((m) => m.text)).toEqual(['one', 'two']);
    expect(mails[0]).toMatchObject({
      from: LOCAL_MAIL.from,
      subject: 's1',
      configuration_set: LOCAL_MAIL.configurationSet,
      message_id: expect.stringMatching(/^local-/),
    });
    expect(await readMailbox('nobody@example.com', dir)).toEqual([]);
  });

  it('retries throttling (429) and sends once SES accepts', async () => {
    mailerEnvironment();
    const before = ses.requests();
    ses.failNext(2);
    await mailer().send({ to: 'retry@example.com', subject: 's', text: 't' });
    expect(ses.requests() - before).toBe(3);
    expect(await readMailbox('retry@example.com', dir)).toHaveLength(1);
  });

  it('refuses what SES refuses: an unverified sender, an unknown configuration set', async () => {
    mailerEnvironment();
    const send = (from: string, configurationSet: string) =>
      sesMailer({ from, configurationSet, suppressed: notSuppressed }).send({
        to: 'refused@example.com',
        subject: 's',
        text: 't',
      });
    await expect(send('me@unverified.example', LOCAL_MAIL.configurationSet)).rejects.toMatchObject({
      name: 'MessageRejected',
    });
    await expect(send(LOCAL_MAIL.from, 'no-such-set')).rejects.toMatchObject({ name: 'NotFoundException' });
    expect(await readMailbox('refused@example.com', dir)).toEqual([]);
  });

  it('sends nothing to an address marked undeliverable', async () => {
    mailerEnvironment();
    const before = ses.requests();
    const suppressed = sesMailer({ ...settings(), suppressed: async (a) => a === 'bounced@example.com' });
    await expect(
      suppressed.send({ to: 'bounced@example.com', subject: 's', text: 't' }),
    ).rejects.toBeInstanceOf(UndeliverableAddressError);
    expect(ses.requests()).toBe(before);
  });

  it('fails closed: a function without the mail settings sends nothing, anywhere', async () => {
    vi.stubEnv('AWS_ENDPOINT_URL_SESV2', ses.endpoint);
    vi.stubEnv('MAIL_FROM', '');
    vi.stubEnv('MAIL_CONFIGURATION_SET', '');
    const before = ses.requests();
    await expect(getMailer().send({ to: 'y@example.com', subject: 's', text: 't' })).rejects.toBeInstanceOf(
      MailDeliveryUnavailableError,
    );
    expect(ses.requests()).toBe(before);
    expect(await readMailbox('y@example.com', dir)).toEqual([]);
  });

  it('a failed delivery (retries exhausted) is reported as failed and logged without the code or the address', async () => {
    mailerEnvironment();
    const error = vi.spyOn(logger, 'error').mockImplementation(() => {});
    useMailer(mailer());
    ses.failNext(MAIL_MAX_ATTEMPTS);
    expect(await mailVerificationCode('secret.person@example.com', '424242')).toBe('failed');
    expect(error).toHaveBeenCalledTimes(1);
    const logged = JSON.stringify(error.mock.calls);
    expect(logged).toContain('TooManyRequestsException');
    expect(logged).not.toContain('424242');
    expect(logged).not.toContain('secret.person');
  });
});
