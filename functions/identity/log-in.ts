import { httpHandler } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { logIn } from '../../shared/identity/onboarding.ts';
import { noStore } from '../../shared/identity/no-store.ts';
import { loginBody } from '../../shared/identity/schemas.ts';

export const handler = httpHandler({ body: loginBody }, async ({ body, now }) =>
  ok(await logIn(body, now), noStore),
);
