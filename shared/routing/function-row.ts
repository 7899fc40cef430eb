import type { IndexName } from '../db/table.ts';

/**
 * The function model (docs/architecture.md "Functions"): every Lambda of the stack is made from a
 * function row, what the function is and may do (handler, table access, other AWS needs, memory,
 * timeout). An HTTP endpoint adds its route to it (shared/routing/route.ts: method, path, auth,
 * throttle, rate limit, envelope); an event worker adds the trigger that invokes it
 * (`WorkerRow`). The stack's grants and environment and the local platform's guard derive from
 * the row alone (shared/platform/access.ts).
 */

/** The DynamoDB actions a function may be granted on the table (Scan never is). */
export type DynamoAction =
  | 'GetItem'
  | 'BatchGetItem'
  | 'Query'
  | 'PutItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'BatchWriteItem'
  | 'ConditionCheckItem'
  /** Only for operator functions that read a whole table (functions/workers.ts): never a request path. */
  | 'Scan';

/** Amazon IVS control-plane actions a function may call (on the account's channels and keys). */
export type IvsAction =
  | 'CreateChannel'
  | 'DeleteChannel'
  | 'GetChannel'
  | 'CreateStreamKey'
  | 'DeleteStreamKey'
  | 'GetStreamKey'
  | 'ListStreamKeys'
  | 'GetStream'
  | 'ListStreams'
  | 'StopStream'
  | 'StartViewerSessionRevocation'
  /** Timed metadata into a live stream (video-synchronised cues: shared/realtime/cues.ts). */
  | 'PutMetadata';

/** Amazon IVS Chat control-plane actions a function may call (on the account's rooms: shared/chat/access.ts). */
export type IvsChatAction =
  | 'CreateRoom'
  | 'DeleteRoom'
  | 'UpdateRoom'
  | 'CreateChatToken'
  | 'DeleteMessage'
  | 'DisconnectUser'
  | 'SendEvent';

/** The capabilities beyond the table and IVS a function may need (each one row of shared/platform/access.ts). */
export type Need =
  | 'analytics-sink'
  | 'token-signer'
  | 'token-verifier'
  | 'playback-signer'
  | 'media-signer'
  | 'recordings-reader'
  | 'webhook-secrets'
  | 'webhook-outbox'
  | 'webhook-dead-letters'
  /** Calls Stripe: reads the Stripe secret (shared/payments/access.ts). */
  | 'stripe'
  /** Reads the payment settings (fee, grace) but never calls Stripe: no grant. */
  | 'payment-settings'
  /** Verifies App Store signed data, calls the App Store Server API (shared/stores/access.ts). */
  | 'app-store'
  /** Calls the Google Play Developer API, verifies Pub/Sub push tokens. */
  | 'google-play'
  | 'mailer'
  /** Writes account exports to the exports bucket (shared/accounts/access.ts). */
  | 'exports-writer'
  /** Presigns GET URLs of account exports. */
  | 'exports-reader'
  /** Reads the analytics pseudonym key (account ids in analytics rows become keyed hashes). */
  | 'analytics-pseudonym'
  /** Sends account jobs (exports, deletions) to their queue. */
  | 'account-jobs'
  /** Encrypts / decrypts TOTP secrets with the second-factor key (shared/identity/second-factor-access.ts). */
  | 'totp-encrypt'
  | 'totp-decrypt'
  /** Reads the operator's creator second-factor setting (CREATOR_SECOND_FACTOR); no grant. */
  | 'second-factor-policy'
  /** Makes or checks emailed one-time codes: kms:GenerateMac on their HMAC key (shared/identity/second-factor-access.ts). */
  | 'one-time-codes'
  /** Publishes live state to the Event API (appsync:EventPublish; shared/realtime/access.ts). */
  | 'realtime-publisher'
  /** Names the Event API's real-time endpoint to subscribers (no grant). */
  | 'realtime-endpoint';

/** What a function is and may do, whatever invokes it. Rows are data: no imports of handlers. */
export interface FunctionRow {
  /** Handler module under `functions/`, without extension; it exports `handler`. */
  handler: string;
  /**
   * The DynamoDB calls the function makes, exactly: the stack grants these actions on the table
   * (a transaction needs the action of each of its operations) and Query on the named indexes,
   * nothing else. Omitted: no table access and no TABLE_NAME. A rate-limited route also gets the
   * UpdateItem its budget counter needs (shared/platform/access.ts).
   */
  dynamo?: { actions: readonly DynamoAction[]; indexes?: readonly IndexName[] };
  /**
   * The IVS calls the function makes, exactly: the stack grants these actions on the account's
   * IVS channels and stream keys (created at run time, so by ARN pattern), each on the resource
   * types IAM authorizes it on (docs/permissions.md); CreateChannel also sets
   * IVS_RECORDING_CONFIGURATION_ARN.
   */
  ivs?: readonly IvsAction[];
  /**
   * The IVS Chat calls the function makes, exactly: granted on the account's rooms (made at run
   * time, so `room/*`); CreateRoom also sets CHAT_REVIEW_HANDLER_ARN and
   * CHAT_LOGGING_CONFIGURATION_ARN (shared/chat/access.ts).
   */
  ivsChat?: readonly IvsChatAction[];
  /** Extra capabilities the function needs; the stack grants exactly these. */
  needs?: readonly Need[];
  /**
   * Memory (MB) when the default 256 does not fit, with the reason: Lambda allocates CPU in
   * proportion to memory, so CPU-bound work is sized here too.
   */
  memory?: { mb: number; reason: string };
  /** Timeout (seconds) when the default 10 does not fit, with the reason. */
  timeout?: { seconds: number; reason: string };
  /**
   * Files of installed packages the function reads at run time (`swagger-ui-dist/swagger-ui.css`),
   * found through Node's module resolution (`createRequire(import.meta.url).resolve`): the stack
   * ships each in the function's bundle under `node_modules/` (infra/bundling.ts), so the same
   * code finds them in the repository's node_modules locally and in the bundle on Lambda.
   */
  files?: readonly string[];
  /** One line: the function's description (and, for a route, the OpenAPI summary). */
  summary: string;
}

/**
 * A function no HTTP route invokes: a stream reader, a queue consumer, a schedule, an event
 * rule's target, a function URL or a service's callback. `trigger` names what invokes it
 * (`$stream/projector`, `$queue/account-jobs`, `$schedule/...`): its key (ROUTE_KEY, the local
 * platform's function name), never an API route. Its handler is `worker(row, fn)`
 * (shared/platform/worker.ts).
 */
export interface WorkerRow extends FunctionRow {
  trigger: string;
}

/**
 * The function's key: a route's `GET /creators/{id}` (the API Gateway route key) or a worker's
 * trigger. The stack sets it as ROUTE_KEY; the local platform names the function's context by it.
 */
export const functionKey = (row: WorkerRow | { method: string; path: string }): string =>
  'trigger' in row ? row.trigger : row.path === '$default' ? '$default' : `${row.method} ${row.path}`;
