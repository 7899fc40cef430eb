import { randomUUID } from 'node:crypto';
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { identityOf } from '../../shared/mail/access.ts';

/**
 * The local stand-in for Amazon SES v2 `SendEmail` (docs/identity.md, "E-mail delivery"). The
 * real `@aws-sdk/client-sesv2` reaches it through its endpoint setting (AWS_ENDPOINT_URL_SESV2,
 * which the local platform sets): REST-JSON, `POST /v2/email/outbound-emails`, errors named by
 * the `x-amzn-ErrorType` header with a `message` body. What SES checks and the platform relies on
 * is checked here: the From address is on a verified identity (MessageRejected otherwise), the
 * configuration set exists (NotFoundException), one recipient at least and a subject and a body
 * (BadRequestException). Each accepted message is appended as one JSON line to the **dev
 * mailbox**, `<MAILBOX_DIR or .local/mailbox>/<url-encoded recipient>.ndjson`, where people
 * (`tail -n 1 .local/mailbox/you%40example.com.ndjson`) and tests (`readMailbox`) read codes.
 * `failNext(n)` makes the next n requests answer TooManyRequestsException (HTTP 429), so the
 * SDK's retries run locally. Signatures are not checked.
 */

/** The local sending identity and configuration set (the local deployment's `mail`). */
export const LOCAL_MAIL = {
  from: 'no-reply@creators.example.com',
  configurationSet: 'creator-streaming-local',
} as const;

/** A message as the dev mailbox stores it. */
export interface StoredMail {
  to: string;
  from: string;
  subject: string;
  text: string;
  configuration_set: string;
  message_id: string;
  sent_at: string;
}

/** The dev mailbox directory: MAILBOX_DIR, else `.local/mailbox` in the repository (git-ignored). */
export const mailboxDir = (): string =>
  process.env.MAILBOX_DIR ?? resolve(import.meta.dirname, '../../.local/mailbox');

const mailboxFile = (dir: string, address: string) =>
  join(dir, `${encodeURIComponent(address.trim().toLowerCase())}.ndjson`);

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

type SesErrorType =
  | 'BadRequestException'
  | 'MessageRejected'
  | 'NotFoundException'
  | 'TooManyRequestsException';
const STATUS: Record<SesErrorType, number> = {
  BadRequestException: 400,
  MessageRejected: 400,
  NotFoundException: 404,
  TooManyRequestsException: 429,
};

class SesError extends Error {
  constructor(
    readonly type: SesErrorType,
    message: string,
  ) {
    super(message);
  }
}

interface SendEmailBody {
  FromEmailAddress?: string;
  Destination?: { ToAddresses?: string[]; CcAddresses?: string[]; BccAddresses?: string[] };
  ConfigurationSetName?: string;
  Content?: {
    Simple?: { Subject?: { Data?: string }; Body?: { Text?: { Data?: string }; Html?: { Data?: string } } };
  };
}

export interface SesStandIn {
  endpoint: string;
  /** Every accepted message since start, oldest first (also in the mailbox files). */
  sent: StoredMail[];
  /** The next `count` requests answer 429 TooManyRequestsException (the SDK retries those). */
  failNext(count: number): void;
  /** Requests received (accepted or not). */
  requests(): number;
  stop(): Promise<void>;
}

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolveBody, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => resolveBody(body));
    req.on('error', reject);
  });

/**
 * Starts the SES stand-in on `port` (0: any). `identities`: the verified identities (domains or
 * addresses); `configurationSets`: the configuration sets that exist; `dir`: the mailbox folder.
 */
export const startSesStandIn = async (
  options: {
    port?: number;
    identities?: readonly string[];
    configurationSets?: readonly string[];
    dir?: () => string;
  } = {},
): Promise<SesStandIn> => {
  const identities = new Set(
    (options.identities ?? [identityOf(LOCAL_MAIL.from)]).map((identity) => identity.toLowerCase()),
  );
  const configurationSets = new Set(options.configurationSets ?? [LOCAL_MAIL.configurationSet]);
  const dir = options.dir ?? mailboxDir;
  const sent: StoredMail[] = [];
  let failures = 0;
  let received = 0;

  const sendEmail = async (input: SendEmailBody): Promise<{ MessageId: string }> => {
    const from = input.FromEmailAddress ?? '';
    const address = /<([^>]+)>\s*$/.exec(from)?.[1] ?? from;
    if (!address.includes('@')) throw new SesError('BadRequestException', 'FromEmailAddress is required');
    if (!identities.has(address.toLowerCase()) && !identities.has(identityOf(address)))
      throw new SesError(
        'MessageRejected',
        `Email address is not verified. The following identities failed the check in region LOCAL: ${address}`,
      );
    if (input.ConfigurationSetName !== undefined && !configurationSets.has(input.ConfigurationSetName))
      throw new SesError(
        'NotFoundException',
        `Configuration set <${input.ConfigurationSetName}> does not exist.`,
      );
    const to = [
      ...(input.Destination?.ToAddresses ?? []),
      ...(input.Destination?.CcAddresses ?? []),
      ...(input.Destination?.BccAddresses ?? []),
    ];
    if (to.length === 0) throw new SesError('BadRequestException', 'Missing final @ domain: no recipient');
    const simple = input.Content?.Simple;
    const subject = simple?.Subject?.Data;
    const text = simple?.Body?.Text?.Data ?? simple?.Body?.Html?.Data;
    if (subject === undefined || text === undefined)
      throw new SesError('BadRequestException', 'Content.Simple needs a Subject and a Body');
    const messageId = `local-${randomUUID()}`;
    const folder = dir();
    await mkdir(folder, { recursive: true });
    for (const recipient of to) {
      const stored: StoredMail = {
        to: recipient,
        from,
        subject,
        text,
        configuration_set: input.ConfigurationSetName ?? '',
        message_id: messageId,
        sent_at: new Date().toISOString(),
      };
      sent.push(stored);
      await appendFile(mailboxFile(folder, recipient), `${JSON.stringify(stored)}\n`);
    }
    return { MessageId: messageId };
  };

  const reply = (res: ServerResponse, status: number, body: unknown, errorType?: string) => {
    res.statusCode = status;
    res.setHeader('content-type', 'application/json');
    if (errorType) res.setHeader('x-amzn-ErrorType', errorType);
    res.end(JSON.stringify(body));
  };

  const server = createServer(async (req, res) => {
    received += 1;
    try {
      const body = await readBody(req);
      if (req.method !== 'POST' || req.url?.split('?')[0] !== '/v2/email/outbound-emails')
        throw new SesError(
          'NotFoundException',
          `The SES stand-in serves SendEmail only, not ${req.method} ${req.url}`,
        );
      if (failures > 0) {
        failures -= 1;
        throw new SesError('TooManyRequestsException', 'Maximum sending rate exceeded.');
      }
      let input: SendEmailBody;
      try {
        input = JSON.parse(body || '{}') as SendEmailBody;
      } catch {
        throw new SesError('BadRequestException', 'The request body is not JSON');
      }
      reply(res, 200, await sendEmail(input));
    } catch (error) {
      if (error instanceof SesError) reply(res, STATUS[error.type], { message: error.message }, error.type);
      else reply(res, 500, { message: (error as Error).message }, 'InternalFailure');
    }
  });
  await new Promise<void>((listening) => server.listen(options.port ?? 0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    sent,
    failNext: (count) => {
      failures = count;
    },
    requests: () => received,
    stop: () =>
      new Promise<void>((stopped) => {
        server.close(() => stopped());
        server.closeAllConnections();
      }),
  };
};
