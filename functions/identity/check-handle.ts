import { httpHandler } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { checkHandle } from '../../shared/identity/onboarding.ts';
import { checkHandleQuery } from '../../shared/identity/schemas.ts';

export const handler = httpHandler({ query: checkHandleQuery }, async ({ query }) =>
  ok(await checkHandle(query.handle)),
);
