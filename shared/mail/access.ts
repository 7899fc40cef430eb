import type { FunctionRow } from '../routing/function-row.ts';

/**
 * What the `mailer` capability of a route row grants and sets (called by
 * shared/platform/access.ts, so the stack and the local platform derive it the same way):
 * ses:SendEmail on the sending identity and the stack's configuration set (IAM authorizes
 * SendEmail against both resource types), GetItem on the table (the suppression check before each
 * send, shared/mail/suppression-repository.ts), and MAIL_FROM and MAIL_CONFIGURATION_SET.
 */
export interface MailDeployment {
  /** The From address (`no-reply@<identity>`), on the verified identity below. */
  from: string;
  /** `arn:aws:ses:<region>:<account>:identity/<domain>`: the verified sending identity. */
  identityArn: string;
  /** The stack's configuration set (its bounce and complaint events feed the suppression). */
  configurationSetName: string;
  configurationSetArn: string;
}

/** Does the function send mail? */
export const sendsMail = (row: FunctionRow): boolean => row.needs?.includes('mailer') ?? false;

const needed = (row: FunctionRow, m: MailDeployment | undefined): MailDeployment | undefined => {
  if (sendsMail(row) && !m)
    throw new Error(
      `Function ${row.handler} needs 'mailer' but the deployment has no mail resources (infra/mail.ts)`,
    );
  return sendsMail(row) ? m : undefined;
};

export const mailStatements = (row: FunctionRow, deployment: MailDeployment | undefined) => {
  const m = needed(row, deployment);
  return m ? [{ actions: ['ses:SendEmail'], resources: [m.identityArn, m.configurationSetArn] }] : [];
};

export const mailEnvironment = (
  row: FunctionRow,
  deployment: MailDeployment | undefined,
): Record<string, string> => {
  const m = needed(row, deployment);
  return m ? { MAIL_FROM: m.from, MAIL_CONFIGURATION_SET: m.configurationSetName } : {};
};

/** Placeholders for `settingsOf` (names only). */
export const MAIL_PLACEHOLDERS: MailDeployment = {
  from: 'x',
  identityArn: 'x',
  configurationSetName: 'x',
  configurationSetArn: 'x',
};

/** The SES identity a From address is sent under: its domain (verify the domain, not the address). */
export const identityOf = (from: string): string => from.slice(from.lastIndexOf('@') + 1).toLowerCase();
