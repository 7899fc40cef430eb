import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { getTvShowDetail } from '../../shared/shows/shows.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.getTvShow, async ({ path, principal, now }) =>
  ok(await getTvShowDetail(path.id, principal?.accountId, now)),
);
