import { endpoint } from '../../shared/http/handler.ts';
import { paged } from '../../shared/http/reply.ts';
import { browseShows } from '../../shared/shows/shows.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.listShows, async ({ query }) => paged(await browseShows(query)));
