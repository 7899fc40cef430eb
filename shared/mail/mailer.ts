import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { awsClient, perContainer } from '../aws/local-hook.ts';
import { isUndeliverable } from './suppression-repository.ts';

/**
 * Outgoing e-mail (verification codes; docs/identity.md, "E-mail delivery"): Amazon SES v2
 * `SendEmail` from MAIL_FROM through the configuration set MAIL_CONFIGURATION_SET (whose bounce
 * and complaint events mark addresses undeliverable: shared/mail/feedback.ts), after checking
 * that the address is not marked (shared/mail/suppression-repository.ts). The same code runs everywhere:
 * locally the SDK reaches the SES stand-in through its endpoint setting (AWS_ENDPOINT_URL_SESV2,
 * set by the local platform: scripts/local/ses.ts writes each message to the dev mailbox).
 * A function without the settings (no `mailer` in its row) sends nothing: it fails closed.
 * Nothing here logs a message, its code or its address.
 */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/**
 * SendEmail attempts per message: the SDK's standard retry mode retries throttling
 * (TooManyRequestsException, 429), 5xx and network errors with backoff and jitter; three
 * attempts stay well inside a route's 10 s.
 */
export const MAIL_MAX_ATTEMPTS = 3;

/** Thrown when the function has no mail settings (its row lacks `mailer`); says nothing about the message. */
export class MailDeliveryUnavailableError extends Error {
  constructor() {
    super('E-mail delivery is not configured for this function (MAIL_FROM, MAIL_CONFIGURATION_SET)');
    this.name = 'MailDeliveryUnavailableError';
  }
}

/** Thrown when the address is marked undeliverable (it bounced permanently or complained). */
export class UndeliverableAddressError extends Error {
  constructor() {
    super('The address is marked undeliverable (a permanent bounce or a complaint): mail is not sent to it');
    this.name = 'UndeliverableAddressError';
  }
}

const sesClient = /* @__PURE__ */ perContainer(() =>
  awsClient(new SESv2Client({ maxAttempts: MAIL_MAX_ATTEMPTS, retryMode: 'standard' }), 'ses'),
);

/**
 * The SES v2 mailer: the suppression check (`suppressed`, the table's by default), then SendEmail
 * (plain text, UTF-8) through the configuration set.
 */
export const sesMailer = (settings: {
  from: string;
  configurationSet: string;
  suppressed?: (address: string) => Promise<boolean>;
}): Mailer => ({
  send: async (message) => {
    if (await (settings.suppressed ?? isUndeliverable)(message.to)) throw new UndeliverableAddressError();
    await sesClient().send(
      new SendEmailCommand({
        FromEmailAddress: settings.from,
        Destination: { ToAddresses: [message.to] },
        ConfigurationSetName: settings.configurationSet,
        Content: {
          Simple: {
            Subject: { Data: message.subject, Charset: 'UTF-8' },
            Body: { Text: { Data: message.text, Charset: 'UTF-8' } },
          },
        },
      }),
    );
  },
});

let mailer: Mailer | undefined;

/** Replaces this container's mailer (tests inject a failing one); `undefined` restores the default. */
export const useMailer = (replacement: Mailer | undefined): void => {
  mailer = replacement;
};

/** The mailer of this function: SES with its settings, or one that refuses when it has none. */
export const getMailer = (): Mailer => {
  if (mailer) return mailer;
  const from = process.env.MAIL_FROM;
  const configurationSet = process.env.MAIL_CONFIGURATION_SET;
  if (!from || !configurationSet) {
    return {
      send: async () => {
        throw new MailDeliveryUnavailableError();
      },
    };
  }
  return sesMailer({ from, configurationSet });
};
