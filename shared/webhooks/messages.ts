import * as z from 'zod/mini';
import { PlatformEvent } from '../events/envelope.ts';

/**
 * What travels on the delivery queue (the SQS outbox): one message per (event, subscription) or
 * per verification, with its retry state. `elapsed_seconds` is the waiting the retry schedule has
 * scheduled so far (shared/webhooks/retry.ts); `hold_seconds` the part of the current wait still
 * to come, for waits longer than SQS's 15-minute delay (the message hops until it is 0).
 */
const retryState = /* @__PURE__ */ (() => ({
  subscription_id: z.string(),
  /** The attempt this message makes (1 for the first). */
  attempt: z.number().check(z.int(), z.minimum(1)),
  elapsed_seconds: z.number().check(z.minimum(0)),
  hold_seconds: z.number().check(z.minimum(0)),
}))();

export const DeliveryMessage = /* @__PURE__ */ (() =>
  z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('event'), event: PlatformEvent, ...retryState }),
    z.object({ kind: z.literal('verification'), ...retryState }),
  ]))();
export type DeliveryMessage = z.infer<typeof DeliveryMessage>;

/** The message that makes the first attempt. */
export const firstAttempt = <M extends { kind: 'event'; event: PlatformEvent } | { kind: 'verification' }>(
  subscriptionId: string,
  message: M,
): DeliveryMessage =>
  ({
    ...message,
    subscription_id: subscriptionId,
    attempt: 1,
    elapsed_seconds: 0,
    hold_seconds: 0,
  }) as DeliveryMessage;

/** SQS's longest message delay. */
export const MAX_DELAY_SECONDS = 900;
