import * as z from 'zod/mini';
import { liveStreams } from '../../shared/home/home.ts';
import { httpHandler } from '../../shared/http/handler.ts';
import { paged } from '../../shared/http/reply.ts';
import { pageQuery } from '../../shared/http/validation.ts';

const query = z.object({ ...pageQuery(10) });

export const handler = httpHandler({ query }, async ({ query }) =>
  paged(await liveStreams(query.page, query.limit)),
);
