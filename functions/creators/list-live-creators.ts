import { liveCreators } from '../../shared/creators/creators.ts';
import { pagedQuery10 } from '../../shared/creators/schemas.ts';
import { httpHandler } from '../../shared/http/handler.ts';
import { paged } from '../../shared/http/reply.ts';

export const handler = httpHandler({ query: pagedQuery10 }, async ({ query }) =>
  paged(await liveCreators(query.page, query.limit)),
);
