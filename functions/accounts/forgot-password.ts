import { endpoint } from '../../shared/http/handler.ts';
import { accepted } from '../../shared/http/reply.ts';
import { requestPasswordReset } from '../../shared/accounts/password-recovery.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.forgotPassword, async ({ body }) =>
  accepted(await requestPasswordReset(body.email)),
);
