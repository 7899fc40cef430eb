import { endpoint } from '../../shared/http/handler.ts';
import { noContent } from '../../shared/http/reply.ts';
import { removeTotp } from '../../shared/identity/second-factor.ts';
import * as contracts from './mfa-contracts.ts';

export const handler = endpoint(contracts.removeTotp, async ({ caller, now }) => {
  await removeTotp(caller(), now);
  return noContent();
});
