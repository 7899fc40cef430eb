import { readMailbox } from '../../scripts/local/ses.ts';
import { fromNewAddress, type TestApi } from './api.ts';
import { waitFor } from './wait.ts';

const RESET_SUBJECT = 'Reset your password';

/** The password-reset mails `email` has received. */
export const resetMailsTo = async (email: string) =>
  (await readMailbox(email)).filter((mail) => mail.subject === RESET_SUBJECT);

/**
 * Asks for a password-reset code for `email` (as typed: any letter case) and answers the 8 digits
 * once the account jobs worker has mailed them: forgot-password answers before the mail
 * (docs/accounts.md "Recovery"), so the calling file runs the worker (`startLocalAccountJobs`).
 */
export const askResetCode = async (api: TestApi, email: string): Promise<string> => {
  const address = email.toLowerCase();
  const before = (await resetMailsTo(address)).length;
  const res = await api.post('/auth/password/forgot', fromNewAddress({ body: { email } }));
  if (res.status !== 202) throw new Error(`forgot-password answered ${res.status}`);
  await waitFor(
    async () => (await resetMailsTo(address)).length > before,
    `a reset code mailed to ${address}`,
    15_000,
  );
  const code = /\b(\d{8})\b/.exec((await resetMailsTo(address)).at(-1)!.text)?.[1];
  if (!code) throw new Error(`no 8-digit code in the reset mail to ${address}`);
  return code;
};
