import { httpHandler } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { chooseCategory } from '../../shared/identity/onboarding.ts';
import { categoryBody } from '../../shared/identity/schemas.ts';

export const handler = httpHandler({ body: categoryBody }, async ({ body, caller }) =>
  ok(await chooseCategory(caller().accountId, body.category_id)),
);
