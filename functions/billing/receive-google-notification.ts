import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { receiveGoogleNotification } from '../../shared/stores/google-notifications.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.receiveGoogleNotification, async ({ body, headers, now }) =>
  ok(await receiveGoogleNotification(headers.authorization, body.message, now)),
);
