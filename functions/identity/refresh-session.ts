import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { rotateSession } from '../../shared/identity/refresh-tokens.ts';
import { noStore } from '../../shared/identity/no-store.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.refreshSession, async ({ body, now }) =>
  ok(await rotateSession(body.refresh_token, now), noStore),
);
