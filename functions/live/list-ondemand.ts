import { endpoint } from '../../shared/http/handler.ts';
import { paged } from '../../shared/http/reply.ts';
import { onDemand } from '../../shared/watch/ondemand.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.listOndemand, async ({ path, query, principal, now }) =>
  paged(await onDemand(path.id, principal?.accountId, query, now)),
);
