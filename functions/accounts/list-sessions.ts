import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { mySessions } from '../../shared/accounts/credentials.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.listMySessions, async ({ caller, now }) =>
  ok(await mySessions(caller(), now)),
);
