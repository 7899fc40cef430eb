import { randomBytes, randomUUID } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { WebhookDeployment } from '../../shared/webhooks/access.ts';

/**
 * Local stand-ins for what the webhook functions call on AWS, served in process behind the local
 * IAM guard (scripts/local/aws.ts), like its other stand-ins:
 * - **SQS** `SendMessage` on the delivery queue and its dead-letter queue. A message becomes
 *   visible after its `DelaySeconds` (times `delayScale`: tests shrink the 3-day schedule), then
 *   goes to the queue's consumer (the sender, run as its function), one message per batch; an
 *   item the consumer reports failed comes back after the visibility timeout and moves to the
 *   dead-letter queue after 5 receives (the queue's redrive policy on AWS). Without a consumer,
 *   messages wait, as in SQS.
 * - the **account jobs queue** and its dead-letter queue (shared/accounts/jobs.ts), the same way,
 *   with a delay scale of its own (`configureLocalAccountJobs`: the tests shrink the deletion's
 *   15-minute wait).
 * The webhook HMAC key (`localWebhookHmacKey`: 32 bytes in `.local/keys/`, or LOCAL_KEY_DIR,
 * created on first use) is served by the local KMS stand-in's `GenerateMac` (scripts/local/aws.ts).
 */

const REGION = 'local';
const ACCOUNT = '000000000000';
const queueUrl = (name: string) => `https://sqs.${REGION}.amazonaws.com/${ACCOUNT}/${name}`;
const queueArn = (name: string) => `arn:aws:sqs:${REGION}:${ACCOUNT}:${name}`;
const KEY_ID = 'webhook-hmac-local';
const QUEUE = 'creator-streaming-local-webhook-deliveries';
const DEAD_LETTERS = 'creator-streaming-local-webhook-dead-letters';

/** The local deployment's webhook resources (names the stack's tokens resolve to on AWS). */
export const LOCAL_WEBHOOKS: WebhookDeployment = {
  keyId: KEY_ID,
  keyArn: `arn:aws:kms:${REGION}:${ACCOUNT}:key/${KEY_ID}`,
  queueUrl: queueUrl(QUEUE),
  queueArn: queueArn(QUEUE),
  deadLetterQueueUrl: queueUrl(DEAD_LETTERS),
  deadLetterQueueArn: queueArn(DEAD_LETTERS),
};

const ACCOUNT_JOBS = 'creator-streaming-local-account-jobs';
const ACCOUNT_JOBS_DEAD_LETTERS = 'creator-streaming-local-account-jobs-dead-letters';
/** The local account jobs queue (shared/accounts/jobs.ts). */
export const LOCAL_ACCOUNT_JOBS = { queueUrl: queueUrl(ACCOUNT_JOBS), queueArn: queueArn(ACCOUNT_JOBS) };

/** `https://sqs.<region>.amazonaws.com/<account>/<name>` → its ARN (what IAM checks). */
export const queueArnOfUrl = (url: string): string => {
  const [account, name] = new URL(url).pathname.split('/').filter(Boolean);
  const region = new URL(url).hostname.split('.')[1] ?? REGION;
  return `arn:aws:sqs:${region}:${account}:${name}`;
};

export type QueueConsumer = (event: SQSEvent) => Promise<SQSBatchResponse | undefined>;

interface Message {
  id: string;
  body: string;
  receives: number;
}

const MAX_RECEIVES = 5;
const VISIBILITY_TIMEOUT_SECONDS = 30;

const settings = { delayScale: 1 };
/** Scale of every delay (message delays, visibility timeouts): tests run the 3-day schedule in seconds. */
export const configureLocalOutbox = (options: { delayScale: number }): void => {
  settings.delayScale = options.delayScale;
};
const accountSettings = { delayScale: 1 };
/** Scale of the account jobs queue's delays (tests: the deletion's 15-minute wait in a second or so). */
export const configureLocalAccountJobs = (options: { delayScale: number }): void => {
  accountSettings.delayScale = options.delayScale;
};

class LocalQueue {
  consumer?: QueueConsumer;
  /** Messages visible with no consumer yet; and every message of a queue that has none (dead letters). */
  readonly waiting: Message[] = [];
  private pending = 0;
  private idle: Array<() => void> = [];
  /** Tests: how many of the next SendMessage calls fail (as SQS throttling or an outage would). */
  failSends = 0;

  constructor(
    readonly url: string,
    private readonly deadLetterQueue?: LocalQueue,
    private readonly scale: () => number = () => settings.delayScale,
  ) {}

  send(body: string, delaySeconds: number): string {
    const message = { id: randomUUID(), body, receives: 0 };
    this.later(message, delaySeconds);
    return message.id;
  }

  /** Each delayed message's "the delay has passed" (what its timer runs). */
  private readonly delayed = new Set<() => void>();
  /** While set, delays pass at once (`drained({ elapse: true })`). */
  private elapsing = false;

  private later(message: Message, seconds: number) {
    this.pending++;
    const due = () => {
      clearTimeout(timer);
      this.delayed.delete(due);
      this.visible(message).finally(() => this.settle());
    };
    const timer = setTimeout(due, this.elapsing ? 0 : seconds * 1000 * this.scale());
    timer.unref?.();
    this.delayed.add(due);
  }

  private settle() {
    this.pending--;
    if (this.pending === 0) for (const resolve of this.idle.splice(0)) resolve();
  }

  private async visible(message: Message): Promise<void> {
    if (!this.consumer) {
      this.waiting.push(message);
      return;
    }
    message.receives++;
    const record = {
      messageId: message.id,
      receiptHandle: message.id,
      body: message.body,
      attributes: { ApproximateReceiveCount: String(message.receives) },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: queueArnOfUrl(this.url),
      awsRegion: REGION,
    } as unknown as SQSEvent['Records'][number];
    const failed = await this.consumer({ Records: [record] }).then(
      (response) => (response?.batchItemFailures ?? []).some((f) => f.itemIdentifier === message.id),
      () => true,
    );
    if (!failed) return;
    if (message.receives >= MAX_RECEIVES && this.deadLetterQueue) {
      this.deadLetterQueue.send(message.body, 0);
      return;
    }
    this.later(message, VISIBILITY_TIMEOUT_SECONDS);
  }

  /** Attaches the consumer (the event source mapping) and hands it what waited. */
  consume(consumer: QueueConsumer | undefined) {
    this.consumer = consumer;
    if (consumer) for (const message of this.waiting.splice(0)) this.later(message, 0);
  }

  /**
   * Resolves once no message is delayed, in flight or being retried. `elapse`: every delay (the
   * ones waiting and the ones sent until then) passes at once, as if the clock had jumped: a test
   * that has made its checks within a delay runs what follows it now instead of waiting it out.
   */
  async drained(options: { elapse?: boolean } = {}): Promise<void> {
    if (this.pending === 0) return;
    const idle = new Promise<void>((resolve) => this.idle.push(resolve));
    if (!options.elapse) return idle;
    this.elapsing = true;
    try {
      for (const due of [...this.delayed]) due();
      await idle;
    } finally {
      this.elapsing = false;
    }
  }
}

const deadLetters = new LocalQueue(LOCAL_WEBHOOKS.deadLetterQueueUrl);
const deliveries = new LocalQueue(LOCAL_WEBHOOKS.queueUrl, deadLetters);
const accountJobsDeadLetters = new LocalQueue(queueUrl(ACCOUNT_JOBS_DEAD_LETTERS), undefined, () => 1);
const accountJobs = new LocalQueue(
  LOCAL_ACCOUNT_JOBS.queueUrl,
  accountJobsDeadLetters,
  () => accountSettings.delayScale,
);
const queues = new Map([
  [deliveries.url, deliveries],
  [deadLetters.url, deadLetters],
  [accountJobs.url, accountJobs],
  [accountJobsDeadLetters.url, accountJobsDeadLetters],
]);

/** The local account jobs queue and its dead-letter queue. */
export const localAccountJobQueues = { jobs: accountJobs, deadLetters: accountJobsDeadLetters };

/** The local delivery queue and its dead-letter queue. */
export const localWebhookQueues = { deliveries, deadLetters };

const namedError = (name: string, message: string) =>
  Object.assign(new Error(message), { name, $fault: 'client', $metadata: {} });

let hmacKey: Buffer | undefined;
/** The local stand-in for the webhook HMAC key (KMS HMAC_256). */
export const localWebhookHmacKey = (): Buffer => {
  if (hmacKey) return hmacKey;
  const dir = resolve(process.env.LOCAL_KEY_DIR ?? join(import.meta.dirname, '../../.local/keys'));
  const file = join(dir, 'webhook-hmac.key');
  try {
    hmacKey = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  } catch {
    mkdirSync(dir, { recursive: true });
    const temp = `${file}.${process.pid}.${randomUUID()}`;
    writeFileSync(temp, randomBytes(32).toString('base64'), { mode: 0o600 });
    try {
      linkSync(temp, file); // atomic: parallel processes agree on one key
    } catch {
      // another process created it first
    }
    rmSync(temp, { force: true });
    hmacKey = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  }
  return hmacKey;
};

type Input = Record<string, unknown>;

/** The stand-ins, by service and command (merged into scripts/local/aws.ts's). */
export const webhookStandIns: Record<string, Record<string, (input: Input) => Promise<unknown>>> = {
  sqs: {
    SendMessage: async (input) => {
      const queue = queues.get(String(input.QueueUrl));
      if (!queue) throw namedError('QueueDoesNotExist', 'The specified queue does not exist.');
      if (queue.failSends > 0) {
        queue.failSends--;
        throw Object.assign(namedError('ServiceUnavailable', 'Service is unavailable (injected)'), {
          $fault: 'server',
          $retryable: {},
        });
      }
      const delay = Number(input.DelaySeconds ?? 0);
      if (delay < 0 || delay > 900) throw namedError('InvalidParameterValue', 'DelaySeconds must be 0-900');
      return { MessageId: queue.send(String(input.MessageBody), delay) };
    },
  },
};
