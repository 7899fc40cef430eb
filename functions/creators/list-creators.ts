import { browseCreators } from '../../shared/creators/creators.ts';
import { listCreatorsQuery } from '../../shared/creators/schemas.ts';
import { httpHandler } from '../../shared/http/handler.ts';
import { paged } from '../../shared/http/reply.ts';

export const handler = httpHandler({ query: listCreatorsQuery }, async ({ query }) =>
  paged(await browseCreators(query)),
);
