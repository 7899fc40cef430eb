import { httpHandler } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { requestEmailVerification } from '../../shared/identity/email-verification.ts';
import { emailVerificationSent } from '../../shared/identity/schemas.ts';

export const handler = httpHandler({ response: emailVerificationSent }, async ({ caller, now }) =>
  ok(await requestEmailVerification(caller().accountId, now)),
);
