import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { stepUp } from '../../shared/identity/step-up.ts';
import { noStore } from '../../shared/identity/no-store.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.stepUp, async ({ body, caller, now }) =>
  ok(await stepUp(caller(), body, now), noStore),
);
