import { httpHandler } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { verifyEmail } from '../../shared/identity/email-verification.ts';
import { emailVerified, verifyEmailBody } from '../../shared/identity/schemas.ts';

export const handler = httpHandler(
  { body: verifyEmailBody, response: emailVerified },
  async ({ body, caller, now }) => ok(await verifyEmail(caller().accountId, body.code, now)),
);
