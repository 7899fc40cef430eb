import { endpoint } from '../../shared/http/handler.ts';
import { created } from '../../shared/http/reply.ts';
import { noStore } from '../../shared/identity/no-store.ts';
import { enrolTotp } from '../../shared/identity/second-factor.ts';
import * as contracts from './mfa-contracts.ts';

export const handler = endpoint(contracts.enrolTotp, async ({ body, caller, now }) =>
  created(await enrolTotp(caller(), body.label, now), noStore),
);
