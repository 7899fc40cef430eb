import { awsClient, perContainer } from './local-hook.ts';

/**
 * The SQS client of a container (./sqs-commands.ts), loaded at first use (a dynamic import) and
 * registered with `awsClient`, so the local platform's IAM guard and queue stand-in see its calls.
 * One for every queue producer: the account jobs (shared/accounts/jobs.ts) and the webhook outbox
 * (shared/webhooks/outbox.ts).
 */
const sqs = /* @__PURE__ */ perContainer(() =>
  import('./sqs-commands.ts').then((sdk) => ({ sdk, client: awsClient(new sdk.SQSClient({}), 'sqs') })),
);

/** SendMessage: `body` as JSON on the queue at `queueUrl`, delivered after `delaySeconds` (0-900). */
export const sendMessage = async (queueUrl: string, body: unknown, delaySeconds: number): Promise<void> => {
  const { sdk, client } = await sqs();
  await client.send(
    new sdk.SendMessageCommand({
      QueueUrl: queueUrl,
      MessageBody: JSON.stringify(body),
      DelaySeconds: delaySeconds,
    }),
  );
};
