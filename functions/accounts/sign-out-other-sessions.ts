import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { signOutOtherSessions } from '../../shared/accounts/credentials.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.signOutOtherSessions, async ({ caller, now }) =>
  ok(await signOutOtherSessions(caller(), now)),
);
