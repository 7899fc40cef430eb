import type { FunctionRow } from '../routing/function-row.ts';

/**
 * What the webhook capabilities of a route row grant and set (called by shared/platform/access.ts,
 * so the stack and the local platform derive them the same way):
 * - `webhook-secrets`: kms:GenerateMac on the webhook HMAC key (subscription secrets derive from
 *   it, shared/webhooks/secrets.ts); WEBHOOK_KEY_ID.
 * - `webhook-outbox`: sqs:SendMessage on the delivery queue; WEBHOOK_QUEUE_URL.
 * - `webhook-dead-letters`: sqs:SendMessage on its dead-letter queue; WEBHOOK_DEAD_LETTER_QUEUE_URL.
 */
export interface WebhookDeployment {
  keyId: string;
  keyArn: string;
  queueUrl: string;
  queueArn: string;
  deadLetterQueueUrl: string;
  deadLetterQueueArn: string;
}

const NEEDS = ['webhook-secrets', 'webhook-outbox', 'webhook-dead-letters'] as const;

const needed = (row: FunctionRow, w: WebhookDeployment | undefined): WebhookDeployment | undefined => {
  const uses = NEEDS.some((need) => row.needs?.includes(need));
  if (uses && !w)
    throw new Error(
      `Function ${row.handler} needs webhook resources but the deployment has none (infra/webhooks.ts)`,
    );
  return uses ? w : undefined;
};

export const webhookStatements = (row: FunctionRow, deployment: WebhookDeployment | undefined) => {
  const w = needed(row, deployment);
  if (!w) return [];
  return [
    ...(row.needs?.includes('webhook-secrets')
      ? [{ actions: ['kms:GenerateMac'], resources: [w.keyArn] }]
      : []),
    ...(row.needs?.includes('webhook-outbox')
      ? [{ actions: ['sqs:SendMessage'], resources: [w.queueArn] }]
      : []),
    ...(row.needs?.includes('webhook-dead-letters')
      ? [{ actions: ['sqs:SendMessage'], resources: [w.deadLetterQueueArn] }]
      : []),
  ];
};

export const webhookEnvironment = (
  row: FunctionRow,
  deployment: WebhookDeployment | undefined,
): Record<string, string> => {
  const w = needed(row, deployment);
  if (!w) return {};
  return {
    ...(row.needs?.includes('webhook-secrets') ? { WEBHOOK_KEY_ID: w.keyId } : {}),
    ...(row.needs?.includes('webhook-outbox') ? { WEBHOOK_QUEUE_URL: w.queueUrl } : {}),
    ...(row.needs?.includes('webhook-dead-letters')
      ? { WEBHOOK_DEAD_LETTER_QUEUE_URL: w.deadLetterQueueUrl }
      : {}),
  };
};

/** Placeholders for `settingsOf` (names only). */
export const WEBHOOK_PLACEHOLDERS: WebhookDeployment = {
  keyId: 'x',
  keyArn: 'x',
  queueUrl: 'x',
  queueArn: 'x',
  deadLetterQueueUrl: 'x',
  deadLetterQueueArn: 'x',
};
