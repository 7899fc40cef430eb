import { EVENT_SOURCE } from '../../shared/events/envelope.ts';
import { fanOutRow, senderRow } from '../../functions/webhooks/workers.ts';
import { functionContext, installLocalAws, runAsFunction } from './aws.ts';
import { configureLocalOutbox, localWebhookQueues } from './webhooks-outbox.ts';

/**
 * Webhooks on this machine (docs/webhooks.md, "Locally"), as on AWS: the fan-out function (the
 * target of the rule on the platform bus) and the sender (the delivery queue's consumer), each run
 * as its function (its environment and IAM policy, scripts/local/aws.ts), the queue and its
 * dead letters served by the local SQS stand-in (scripts/local/webhooks-outbox.ts). Deliveries go
 * for real over HTTP to the subscriptions' callbacks; loopback receivers need
 * LOCAL_WEBHOOK_CALLBACKS=private (never a default: `LOCAL_WEBHOOK_CALLBACKS=private npm start`).
 */
export interface LocalWebhooks {
  /** Hands one EventBridge event to the fan-out, as the rule would. */
  publish(event: unknown): Promise<unknown>;
  /** Resolves once no delivery is queued, delayed or in flight. */
  drain(): Promise<void>;
  /** Bodies of the messages in the dead-letter queue. */
  deadLetters(): string[];
  stop(): void;
}

export const startLocalWebhooks = async (options: { delayScale?: number } = {}): Promise<LocalWebhooks> => {
  installLocalAws();
  configureLocalOutbox({ delayScale: options.delayScale ?? 1 });
  const { handler: fanOut } = await runAsFunction(
    functionContext(fanOutRow),
    () => import('../../functions/webhooks/fan-out.ts'),
  );
  const { handler: send } = await runAsFunction(
    functionContext(senderRow),
    () => import('../../functions/webhooks/send-deliveries.ts'),
  );
  const fanOutContext = functionContext(fanOutRow);
  const senderContext = functionContext(senderRow);
  localWebhookQueues.deliveries.consume((event) => runAsFunction(senderContext, () => send(event)));
  const publish = (event: unknown) => runAsFunction(fanOutContext, () => fanOut(event));
  // The rule on Part A's local bus, when there is one: every platform event to the fan-out.
  const bus = await import('./event-bus.ts').catch(() => undefined);
  const removeRule = bus?.addLocalRule({ source: [EVENT_SOURCE] }, async (event) => {
    await publish(event);
  });
  return {
    publish,
    drain: async () => {
      await localWebhookQueues.deliveries.drained();
      await localWebhookQueues.deadLetters.drained();
    },
    deadLetters: () => localWebhookQueues.deadLetters.waiting.map((m) => m.body),
    stop: () => {
      removeRule?.();
      localWebhookQueues.deliveries.consume(undefined);
    },
  };
};
