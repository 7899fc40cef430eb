import { httpHandler } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { showPath } from '../../shared/shows/schemas.ts';
import { getShowDetail } from '../../shared/shows/shows.ts';

export const handler = httpHandler({ path: showPath }, async ({ path, principal, now }) =>
  ok(await getShowDetail(path.id, principal?.accountId, now)),
);
