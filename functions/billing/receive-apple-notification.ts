import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { receiveAppleNotification } from '../../shared/stores/apple-notifications.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.receiveAppleNotification, async ({ body, now }) =>
  ok(await receiveAppleNotification(body.signedPayload, now)),
);
