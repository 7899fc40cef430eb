import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { updateMe } from '../../shared/identity/me.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.updateMe, async ({ body, caller }) =>
  ok(await updateMe(caller().accountId, body)),
);
