import { creatorDetail } from '../../shared/creator-page/creator-detail.ts';
import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.getCreator, async ({ path, principal, now }) =>
  ok(await creatorDetail(path.id, principal?.accountId, now)),
);
