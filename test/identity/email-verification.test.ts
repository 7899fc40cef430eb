import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  codeMatches,
  mailVerificationCode,
  newVerificationCode,
  VERIFICATION_CODE_TTL_SECONDS,
} from '../../shared/identity/email-verification.ts';
import { getMailer, mailboxMailer, readMailbox, useMailer } from '../../shared/identity/mailer.ts';
import { logger } from '../../shared/observability/index.ts';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  useMailer(undefined);
});

describe('verification codes', () => {
  const now = new Date('2026-11-23T10:00:00Z');

  it('are 6 random digits, stored only as a salted hash bound to the account, expiring in 15 minutes', () => {
    const { code, record } = newVerificationCode('acc_1', 'a@example.com', now);
    expect(code).toMatch(/^\d{6}$/);
    expect(JSON.stringify(record)).not.toContain(code);
    expect(record).toMatchObject({ account_id: 'acc_1', email: 'a@example.com', attempts: 0 });
    expect(record.expires_at_epoch).toBe(now.getTime() / 1000 + VERIFICATION_CODE_TTL_SECONDS);
    expect(codeMatches(record, code)).toBe(true);
    expect(codeMatches(record, String((Number(code) + 1) % 1_000_000).padStart(6, '0'))).toBe(false);
    expect(codeMatches({ ...record, account_id: 'acc_2' }, code)).toBe(false);
    expect(codeMatches({ ...record, code_hash: 'short' }, code)).toBe(false);
    const codes = new Set(Array.from({ length: 50 }, () => newVerificationCode('acc_1', 'a', now).code));
    expect(codes.size).toBeGreaterThan(40);
  });
});

describe('the mailer', () => {
  it('dev mailbox: one NDJSON line per message in a file per recipient', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mailbox-'));
    try {
      const mailer = mailboxMailer(() => dir);
      await mailer.send({ to: 'A.B@Example.com', subject: 's1', text: 'one' });
      await mailer.send({ to: 'a.b@example.com', subject: 's2', text: 'two' });
      const mails = await readMailbox('a.b@example.com', dir);
      expect(mails.map((m) => m.text)).toEqual(['one', 'two']);
      expect(await readMailbox('nobody@example.com', dir)).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('writes to MAILBOX_DIR locally, and never to a mailbox on AWS', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mailbox-'));
    try {
      vi.stubEnv('MAILBOX_DIR', dir);
      await getMailer().send({ to: 'x@example.com', subject: 's', text: 't' });
      expect(await readMailbox('x@example.com', dir)).toHaveLength(1);
      for (const [name, value] of [
        ['AWS_LAMBDA_FUNCTION_NAME', 'sign-up'],
        ['STAGE', 'prod'],
      ] as const) {
        vi.unstubAllEnvs();
        vi.stubEnv('MAILBOX_DIR', dir);
        vi.stubEnv(name, value);
        await expect(getMailer().send({ to: 'y@example.com', subject: 's', text: 't' })).rejects.toThrow(
          /not configured on AWS/,
        );
      }
      expect(await readMailbox('y@example.com', dir)).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a failed delivery is reported as false and logged without the code or the address', async () => {
    const error = vi.spyOn(logger, 'error').mockImplementation(() => {});
    useMailer({
      send: async (message) => {
        throw new Error(`SES refused ${message.to}: ${message.text}`);
      },
    });
    expect(await mailVerificationCode('secret.person@example.com', '424242')).toBe(false);
    expect(error).toHaveBeenCalledTimes(1);
    const logged = JSON.stringify(error.mock.calls);
    expect(logged).not.toContain('424242');
    expect(logged).not.toContain('secret.person');
  });
});
