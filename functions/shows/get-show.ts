import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { getShowDetail } from '../../shared/shows/shows.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.getShow, async ({ path, principal, now }) =>
  ok(await getShowDetail(path.id, principal?.accountId, now)),
);
