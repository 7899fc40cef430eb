import { findCreators } from '../../shared/creators/creators.ts';
import { searchCreatorsQuery } from '../../shared/creators/schemas.ts';
import { httpHandler } from '../../shared/http/handler.ts';
import { paged } from '../../shared/http/reply.ts';

export const handler = httpHandler({ query: searchCreatorsQuery }, async ({ query }) =>
  paged(await findCreators(query)),
);
