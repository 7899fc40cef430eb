import { httpHandler } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { checkEmail } from '../../shared/identity/onboarding.ts';
import { checkEmailQuery } from '../../shared/identity/schemas.ts';

export const handler = httpHandler({ query: checkEmailQuery }, async ({ query }) =>
  ok(await checkEmail(query.email)),
);
