import { endpoint } from '../../shared/http/handler.ts';
import { created } from '../../shared/http/reply.ts';
import { startCheckout } from '../../shared/payments/checkout.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.createCheckout, async ({ body, caller, now }) =>
  created(
    await startCheckout(
      caller().accountId,
      body.creator_id !== undefined ? { creator_id: body.creator_id } : { content_id: body.content_id! },
      now,
    ),
  ),
);
