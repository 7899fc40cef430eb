import { tvCreatorDetail } from '../../shared/creators/creator-detail.ts';
import { creatorPath } from '../../shared/creators/schemas.ts';
import { httpHandler } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';

export const handler = httpHandler({ path: creatorPath }, async ({ path, principal, now }) =>
  ok(await tvCreatorDetail(path.id, principal?.accountId, now)),
);
