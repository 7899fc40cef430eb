import { httpHandler } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { showRatings } from '../../shared/shows/shows.ts';

export const handler = httpHandler({}, () => ok(showRatings()));
