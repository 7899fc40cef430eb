import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { unfollow } from '../../shared/creators/follows.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.unfollowCreator, async ({ path, caller }) =>
  ok(await unfollow(path.id, caller().accountId)),
);
