import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { getMe } from '../../shared/identity/me.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.getMe, async ({ caller }) => ok(await getMe(caller().accountId)));
