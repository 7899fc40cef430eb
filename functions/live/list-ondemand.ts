import { httpHandler } from '../../shared/http/handler.ts';
import { paged } from '../../shared/http/reply.ts';
import { onDemand } from '../../shared/live/ondemand.ts';
import { creatorPath, ondemandQuery } from '../../shared/live/schemas.ts';

export const handler = httpHandler(
  { path: creatorPath, query: ondemandQuery },
  async ({ path, query, principal, now }) => paged(await onDemand(path.id, principal?.accountId, query, now)),
);
