import { httpHandler } from '../../shared/http/handler.ts';
import { created } from '../../shared/http/reply.ts';
import { signUp } from '../../shared/identity/onboarding.ts';
import { noStore } from '../../shared/identity/no-store.ts';
import { createAccountBody } from '../../shared/identity/schemas.ts';

export const handler = httpHandler({ body: createAccountBody }, async ({ body, now }) =>
  created(await signUp(body, now), noStore),
);
