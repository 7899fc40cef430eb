import { httpHandler } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { showCategories } from '../../shared/shows/shows.ts';

export const handler = httpHandler({}, async () => ok(await showCategories()));
