import { checkEmail } from '../../shared/identity/onboarding.ts';
import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.checkEmail, async ({ query }) => ok(await checkEmail(query.email)));
