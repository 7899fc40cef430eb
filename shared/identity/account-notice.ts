import { getMailer, UndeliverableAddressError } from '../mail/mailer.ts';
import { logger } from '../observability/index.ts';

/**
 * A notice to an address about a change to its account (a password, its address, its second
 * factor): what its owner needs to see when the change was not theirs. A failure is logged, never
 * fatal: the change is made either way.
 */
export const notifyAccount = async (to: string, subject: string, text: string): Promise<void> => {
  try {
    await getMailer().send({ to, subject, text });
  } catch (error) {
    if (!(error instanceof UndeliverableAddressError))
      logger.error('Account notice not sent', { error: error instanceof Error ? error.name : 'unknown' });
  }
};
