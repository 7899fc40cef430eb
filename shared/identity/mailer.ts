import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/**
 * Outgoing e-mail (verification codes). One interface, two implementations:
 * - the **dev mailbox** (local platform, tests): each message is appended as one JSON line to
 *   `<MAILBOX_DIR or .local/mailbox>/<url-encoded address>.ndjson`, so a developer reads the code
 *   with `tail -n 1 .local/mailbox/<address>.ndjson`;
 * - on AWS, **no delivery yet**: `send` rejects (the caller answers 503 or carries on without the
 *   mail). The next step is Amazon SES v2 `SendEmail` (docs/identity.md, "E-mail delivery").
 * Neither ever logs a message or its code.
 */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** A message as the dev mailbox stores it. */
export interface StoredMail extends MailMessage {
  sent_at: string;
}

/** The dev mailbox directory: MAILBOX_DIR, else `.local/mailbox` in the repository (git-ignored). */
export const mailboxDir = (): string =>
  process.env.MAILBOX_DIR ?? resolve(import.meta.dirname, '../../.local/mailbox');

const mailboxFile = (dir: string, address: string) =>
  join(dir, `${encodeURIComponent(address.trim().toLowerCase())}.ndjson`);

/** The dev mailbox: one NDJSON file per recipient under `dir()`. */
export const mailboxMailer = (dir: () => string = mailboxDir): Mailer => ({
  send: async (message) => {
    const folder = dir();
    await mkdir(folder, { recursive: true });
    const stored: StoredMail = { ...message, sent_at: new Date().toISOString() };
    await appendFile(mailboxFile(folder, message.to), `${JSON.stringify(stored)}\n`);
  },
});

/** Every message the dev mailbox holds for `address`, oldest first (empty when none). */
export const readMailbox = async (address: string, dir = mailboxDir()): Promise<StoredMail[]> => {
  let text: string;
  try {
    text = await readFile(mailboxFile(dir, address), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as StoredMail);
};

/** Thrown by the AWS mailer until SES delivery is built; says nothing about the message. */
export class MailDeliveryUnavailableError extends Error {
  constructor() {
    super(
      'E-mail delivery is not configured on AWS yet (SES v2 SendEmail is the next step: docs/identity.md)',
    );
    this.name = 'MailDeliveryUnavailableError';
  }
}

const unavailableMailer: Mailer = {
  send: async () => {
    throw new MailDeliveryUnavailableError();
  },
};

/**
 * Is this a deployed function? On Lambda, or a stage other than the local one: the dev mailbox
 * would write into a read-only bundle (or, worse, somewhere nobody reads), so it is never used there.
 */
const deployed = () =>
  Boolean(process.env.AWS_LAMBDA_FUNCTION_NAME) ||
  (process.env.STAGE !== undefined && process.env.STAGE !== 'local');

let mailer: Mailer | undefined;

/** Replaces this container's mailer (tests inject a failing one); `undefined` restores the default. */
export const useMailer = (replacement: Mailer | undefined): void => {
  mailer = replacement;
};

/** The mailer of this environment: the dev mailbox locally, none yet on AWS. */
export const getMailer = (): Mailer => {
  if (mailer) return mailer;
  return deployed() ? unavailableMailer : mailboxMailer();
};
