import type { IndexName } from '../db/table.ts';

/** A route's request budget: `limit` requests per `windowSeconds` per client. */
export interface RateLimit {
  limit: number;
  windowSeconds: number;
  /** Who the budget belongs to: the caller's IP address, or the signed-in account (IP when anonymous). */
  by: 'ip' | 'account';
}

/** One IAM statement: every action on every resource (ARNs, no wildcards). */
export interface Statement {
  actions: readonly string[];
  resources: readonly string[];
}

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

/** One row of the route table (`functions/routes.ts`). Rows are data: no imports of handlers. */
export interface RouteRow {
  /** `ANY` only with the `$default` path: the catch-all for requests no other route matches. */
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'ANY';
  /** API Gateway HTTP API path syntax, e.g. `/creators/{id}`, or `$default`. */
  path: string;
  /** Handler module under `functions/`, without extension; it exports `handler`. */
  handler: string;
  /** `required`: 401 without a valid bearer token; `optional`: verified when sent. */
  auth: 'none' | 'optional' | 'required';
  /**
   * A sensitive action (stream key, payouts, plan price, email or password): the token's
   * `auth_time` must be within the last 10 minutes, or 401 `reason: "step_up_required"`
   * (shared/http/middleware/step-up.ts). Only with `auth: 'required'`.
   */
  stepUp?: true;
  /**
   * The DynamoDB calls the function makes, exactly: the stack grants these actions on the table
   * (a transaction needs the action of each of its operations) and Query on the named indexes,
   * nothing else. Omitted: no table access and no TABLE_NAME. A rate-limited row also gets the
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
  /**
   * Memory (MB) when the default 256 does not fit, with the reason: Lambda allocates CPU in
   * proportion to memory, so CPU-bound work is sized here too.
   */
  memory?: { mb: number; reason: string };
  /** Response envelope family (spec 2.1): reactions routes use their own; `none` for standard documents (JWKS, OpenAPI, HTML). */
  envelope?: 'standard' | 'reactions' | 'none';
  /** Extra capabilities the function needs; the stack grants exactly these. */
  needs?: ReadonlyArray<
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
    /** Publishes live state to the Event API (appsync:EventPublish; shared/realtime/access.ts). */
    | 'realtime-publisher'
    /** Names the Event API's real-time endpoint to subscribers (no grant). */
    | 'realtime-endpoint'
  >;
  /**
   * Per-client request budget enforced by the middleware (429 `rate_limit` past it); needs table
   * write. Several rules (e.g. per account and per IP) are each enforced; with an `ip` rule beside
   * it, an `account` rule counts only signed-in callers.
   */
  rateLimit?: RateLimit | readonly RateLimit[];
  /**
   * Log the request line of one successful request in `every` (per container: the first, then
   * every `every`th), with the reason; failures are always logged, metrics always recorded. For
   * the highest-volume routes, where the line per request is a cost line of its own (docs/cost.md).
   */
  successLog?: { every: number; reason: string };
  /**
   * Files of installed packages the function reads at run time (`swagger-ui-dist/swagger-ui.css`),
   * found through Node's module resolution (`createRequire(import.meta.url).resolve`): the stack
   * ships each in the function's bundle under `node_modules/` (infra/bundling.ts), so the same
   * code finds them in the repository's node_modules locally and in the bundle on Lambda.
   */
  files?: readonly string[];
  /** Per-route API Gateway throttling (requests per second, burst). */
  throttle?: { rate: number; burst: number };
  /** One line for the OpenAPI document and the README endpoint list. */
  summary: string;
  /** OpenAPI tag. */
  tag: string;
}

/**
 * A studio route: a creator acting as one (their profile, shows, channel, stream key, payouts,
 * plan). With the operator's `creatorSecondFactor: required` these need a token whose sign-in
 * passed a second factor (shared/http/middleware/step-up.ts).
 */
export const isStudioRoute = (row: Pick<RouteRow, 'path'>): boolean => row.path.startsWith('/studio/');

/** A row's rate-limit rules as a list (none, one or several). */
export const rateLimitsOf = (row: Pick<RouteRow, 'rateLimit'>): readonly RateLimit[] =>
  row.rateLimit === undefined ? [] : 'limit' in row.rateLimit ? [row.rateLimit] : row.rateLimit;

/** `GET /creators/{id}`: the API Gateway route key, also used by the local server. */
export const routeKey = (row: Pick<RouteRow, 'method' | 'path'>): string =>
  row.path === '$default' ? '$default' : `${row.method} ${row.path}`;
