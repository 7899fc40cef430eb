import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { follow } from '../../shared/creators/follows.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.followCreator, async ({ path, caller, now }) =>
  ok(await follow(path.id, caller().accountId, now)),
);
