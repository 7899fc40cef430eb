import { httpHandler } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { rotateSession } from '../../shared/identity/refresh-tokens.ts';
import { noStore } from '../../shared/identity/no-store.ts';
import { refreshBody } from '../../shared/identity/schemas.ts';

export const handler = httpHandler({ body: refreshBody }, async ({ body, now }) =>
  ok(await rotateSession(body.refresh_token, now), noStore),
);
