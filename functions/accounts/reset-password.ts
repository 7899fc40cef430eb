import { endpoint } from '../../shared/http/handler.ts';
import { noContent } from '../../shared/http/reply.ts';
import { resetPassword } from '../../shared/accounts/password-recovery.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.resetPassword, async ({ body, now }) => {
  await resetPassword(body, now);
  return noContent();
});
