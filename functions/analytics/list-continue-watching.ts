import * as z from 'zod/mini';
import { listContinueWatching } from '../../shared/analytics/continue-watching.ts';
import { httpHandler } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { pageQuery } from '../../shared/http/validation.ts';

const query = z.object({ limit: pageQuery(20).limit });

export const handler = httpHandler({ query }, async ({ query, caller }) =>
  ok({ items: await listContinueWatching(caller().accountId, query.limit) }),
);
