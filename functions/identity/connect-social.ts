import { httpHandler } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { connectSocial } from '../../shared/identity/onboarding.ts';
import { socialConnectBody } from '../../shared/identity/schemas.ts';

export const handler = httpHandler({ body: socialConnectBody }, async ({ body, caller, now }) =>
  ok(await connectSocial(caller().accountId, body, now)),
);
