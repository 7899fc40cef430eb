import { checkHandle } from '../../shared/identity/onboarding.ts';
import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.checkHandle, async ({ query }) =>
  ok(await checkHandle(query.handle)),
);
