import { httpHandler } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { addHandle } from '../../shared/identity/onboarding.ts';
import { claimHandleBody } from '../../shared/identity/schemas.ts';

export const handler = httpHandler({ body: claimHandleBody }, async ({ body, caller }) =>
  ok(await addHandle(caller().accountId, body.handle)),
);
