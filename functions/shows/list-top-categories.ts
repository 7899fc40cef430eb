import { httpHandler } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { topCategories } from '../../shared/shows/shows.ts';

export const handler = httpHandler({}, async () => ok(await topCategories()));
