import { PAYMENT_DEFAULTS } from '../../shared/payments/access.ts';
import { STORE_DEFAULTS } from '../../shared/stores/access.ts';
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  createPublicKey,
  type KeyObject,
  randomBytes,
  randomUUID,
  sign,
} from 'node:crypto';
import { appendFileSync, mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { join, resolve } from 'node:path';
import type { AnalyticsRecord } from '../../shared/analytics/sink.ts';
import { fileSink } from './file-sink.ts';
import { LOCAL_AWS_ENVIRONMENT } from './local-table.ts';
import {
  LOCAL_ACCOUNT_JOBS,
  LOCAL_WEBHOOKS,
  localWebhookHmacKey,
  queueArnOfUrl,
  webhookStandIns,
} from './webhooks-outbox.ts';
import { LOCAL_MAIL } from './ses.ts';
import { identityOf } from '../../shared/mail/access.ts';
import { type HookableClient, installClientHook, installContainerId } from '../../shared/aws/local-hook.ts';
import { functionKey, type FunctionRow } from '../../shared/routing/function-row.ts';
import { LOCAL_GOOGLE_CLIENT_ID } from './local-idp.ts';
import {
  localMediaKey,
  localPlaybackKey,
  localOneTimeCodeKey,
  localSecondFactorKey,
  localSigningKey,
  localSigningPublicJwk,
} from './local-key.ts';
import {
  commonEnvironment,
  type Deployment,
  type DeployedRow,
  environmentOf,
  policyOf,
  type Statement,
} from '../../shared/platform/access.ts';
import { type Call, type Need, needsOfCall, refusedNeed } from './iam.ts';

/**
 * The local stand-in for what Lambda and IAM give a function on AWS:
 * - each invocation runs with exactly the environment the stack gives that route's function
 *   (`environmentOf`, the same derivation the stack uses), plus the runtime variables listed in
 *   RUNTIME below; `process.env` answers from that environment while a handler runs;
 * - every AWS SDK call a handler makes is checked against the function's IAM policy
 *   (`policyOf`, again the stack's derivation) and refused with AccessDeniedException, as AWS
 *   would: the call's action and the ARNs it names (below) become the requests IAM authorizes,
 *   each evaluated as IAM does (./iam.ts: the Service Authorization Reference and IAM's
 *   evaluation logic; docs/permissions.md "How a call is authorized");
 * - services without a local emulator are served in process: Secrets Manager GetSecretValue
 *   (the local IVS playback key, or what PutSecretValue wrote in this process), S3 GetObject
 *   (recordings under RECORDINGS_ROOT or .local/recordings), KMS Sign and GetPublicKey with the
 *   local signing key (whose public JWK the local
 *   deployment gives verifying functions, as the stack's deploy-time resource does), KMS Encrypt
 *   and Decrypt with the local second-factor key (TOTP secrets), Firehose
 *   PutRecordBatch into NDJSON files (ANALYTICS_DIR or .local/analytics). DynamoDB calls go on
 *   to DynamoDB Local.
 * Code outside an invocation (seeding, test set-up) runs with the process's own environment and
 * no guard, like an operator with admin credentials.
 */

const REGION = LOCAL_AWS_ENVIRONMENT.AWS_REGION;
const ACCOUNT = '000000000000';
const arn = (service: string, resource: string) => `arn:aws:${service}:${REGION}:${ACCOUNT}:${resource}`;

/** The process's real environment (the host's), whatever invocation is running. */
const host: NodeJS.ProcessEnv = process.env;
export const hostEnv = (name: string): string | undefined => host[name];

/**
 * What the Lambda runtime (or, locally, the developer's shell) adds to a function's environment:
 * the region, and local-only redirections and switches that no stack ever sets.
 */
const RUNTIME_PASSTHROUGH = [
  'PATH',
  'HOME',
  'TZ',
  'NODE_ENV',
  'VITEST',
  'LOG_LEVEL',
  'POWERTOOLS_METRICS_DISABLED',
  'AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED',
  // Where DynamoDB Local and the SES stand-in listen (the local "network"), local keys, the local identity provider.
  // DynamoDB Local: the SDK's own endpoint setting, which no stack sets (shared/db/client.ts).
  'AWS_ENDPOINT_URL_DYNAMODB',
  // The IVS stand-in's control plane (scripts/local/ivs): the SDK's own endpoint setting (shared/ivs/client.ts).
  'AWS_ENDPOINT_URL_IVS',
  // The Stripe stand-in's API (scripts/local/stripe): a URL setting no stack sets (real Stripe then).
  'STRIPE_API_URL',
  // The app stores' stand-ins (scripts/local/appstore, scripts/local/play): URL settings no stack sets.
  'APP_STORE_API_URL',
  'PLAY_API_URL',
  'PLAY_PUSH_JWKS_URL',
  'AWS_ENDPOINT_URL_SESV2',
  // The S3 stand-in's REST endpoint (scripts/local/s3.ts): the exports bucket and its presigned URLs.
  'AWS_ENDPOINT_URL_S3',
  // The IVS Chat stand-in's control plane (scripts/local/ivschat, docs/local-ivschat.md): read by the SDK itself.
  'AWS_ENDPOINT_URL_IVSCHAT',
  // Its messaging WebSocket, which the chat token route names to clients (shared/chat/client.ts).
  'IVSCHAT_MESSAGING_ENDPOINT',
  'RECORDINGS_ROOT',
  'LOCAL_KEY_DIR',
  // The local identity provider's key set (scripts/local/google-idp.ts): a URL setting no stack sets.
  'GOOGLE_JWKS_URI',
  // Developer switch: relax or switch off per-IP rate limits locally (docs/conventions.md).
  'LOCAL_RATE_LIMITS',
  // Developer switch: webhook callbacks on loopback and private addresses (docs/webhooks.md).
  'LOCAL_WEBHOOK_CALLBACKS',
] as const;

const runtimeEnvironment = (): Record<string, string> => {
  // Metrics are CloudWatch EMF lines on Lambda; locally they would only flood the console.
  // Region and credentials: Lambda's are the region's and the execution role's; locally dummies.
  const env: Record<string, string> = { ...LOCAL_AWS_ENVIRONMENT, POWERTOOLS_METRICS_DISABLED: 'true' };
  for (const name of RUNTIME_PASSTHROUGH) {
    const value = host[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
};

/** The secret the local playback key stands in for (served by the Secrets Manager stand-in below). */
const LOCAL_PLAYBACK_KEY_SECRET_ARN = arn('secretsmanager', 'secret:playback-key-local-AbCdEf');
/** The secret the local media CDN key stands in for (served by the same stand-in). */
const LOCAL_MEDIA_KEY_SECRET_ARN = arn('secretsmanager', 'secret:media-key-local-GhIjKl');
/**
 * The secret the Stripe keys stand in for: JSON `{ secret_key, webhook_secret,
 * connect_webhook_secret }` of the Stripe stand-in (scripts/local/stripe, docs/local-stripe.md),
 * which the local platform puts in the host's LOCAL_STRIPE_SECRET when it starts the stand-in and
 * registers its webhook endpoints (read per call: it changes when the endpoints are registered).
 */
export const LOCAL_STRIPE_SECRET_ARN = arn('secretsmanager', 'secret:stripe-local-MnOpQr');
/**
 * The app stores' secrets (docs/payments.md, "App stores"): the App Store's (`{root_certificates,
 * ...}`: the local test CA's root, made when the App Store stand-in starts) and Google Play's (a
 * service account key for the Play stand-in), put in the host's LOCAL_APP_STORE_SECRET and
 * LOCAL_PLAY_SECRET by the local platform (read per call).
 */
export const LOCAL_APP_STORE_SECRET_ARN = arn('secretsmanager', 'secret:app-store-local-YzAbCd');
export const LOCAL_PLAY_SECRET_ARN = arn('secretsmanager', 'secret:play-local-EfGhIj');
/** The analytics pseudonym key (docs/accounts.md): derived from the local signing key, stable per machine. */
const LOCAL_PSEUDONYM_SECRET_ARN = arn('secretsmanager', 'secret:analytics-pseudonym-local-StUvWx');
/** The exports bucket, served by the S3 stand-in (scripts/local/s3.ts). */
export const LOCAL_EXPORTS_BUCKET = 'local-exports';
const pem = (privateKey: KeyObject) => privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
/** The local secrets (private keys as PEM, the Stripe keys as JSON), by ARN; undefined: not there. */
const localSecrets: Record<string, { name: string; value: () => string | undefined }> = {
  [LOCAL_PLAYBACK_KEY_SECRET_ARN]: {
    name: 'playback-key-local',
    value: () => pem(localPlaybackKey().privateKey),
  },
  [LOCAL_MEDIA_KEY_SECRET_ARN]: { name: 'media-key-local', value: () => pem(localMediaKey().privateKey) },
  [LOCAL_STRIPE_SECRET_ARN]: { name: 'stripe-local', value: () => host.LOCAL_STRIPE_SECRET },
  [LOCAL_APP_STORE_SECRET_ARN]: { name: 'app-store-local', value: () => host.LOCAL_APP_STORE_SECRET },
  [LOCAL_PLAY_SECRET_ARN]: { name: 'play-local', value: () => host.LOCAL_PLAY_SECRET },
  [LOCAL_PSEUDONYM_SECRET_ARN]: {
    name: 'analytics-pseudonym-local',
    value: () =>
      createHmac('sha256', pem(localSigningKey().privateKey)).update('analytics-pseudonym').digest('base64'),
  },
};
/** The recordings bucket of the local recording configuration; objects live under RECORDINGS_ROOT. */
export const LOCAL_RECORDINGS_BUCKET = 'local-recordings';
/** Where the broadcaster writes recordings and the S3 stand-in reads them: `<root>/<bucket>/<key>`. */
export const recordingsRoot = (): string =>
  host.RECORDINGS_ROOT ?? resolve(import.meta.dirname, '../../.local/recordings');

/**
 * The origins local playback tokens and the media CDN stand-in allow by default: the web app's
 * (`SITE_URL`, as on AWS) and the loopback origin the local platform serves its player page on
 * (`/_local/player` on the IVS stand-in, scripts/local/player-page.ts), as `127.0.0.1` and
 * `localhost`. A page of your own on another origin: `PLAYBACK_ALLOW_ORIGIN` (IVS's list syntax).
 */
const localPlaybackOrigins = (): string => {
  const site = new URL(host.SITE_URL ?? 'https://creators.example.com').origin;
  const ivs = host.IVS_ENDPOINT ? new URL(host.IVS_ENDPOINT) : undefined;
  const loopback = ivs ? [ivs.origin, `${ivs.protocol}//localhost:${ivs.port}`] : [];
  return [site, ...new Set(loopback)].join(',');
};

/**
 * The local ARN of `row`'s function, under which the local Lambda service (./lambda.ts) serves it
 * for what AWS services invoke by ARN: `arn:aws:lambda:us-east-1:000000000000:function:
 * creator-streaming-local-<handler, dashed>` (the stand-ins' account and region).
 */
export const localFunctionArn = (row: Pick<FunctionRow, 'handler'>): string =>
  `arn:aws:lambda:us-east-1:000000000000:function:creator-streaming-local-${row.handler.replace(/[^a-zA-Z0-9-_]/g, '-')}`;

/**
 * Local IVS Chat: rooms in the stand-in's account and region (as `ivsArnPrefix`, whatever the local
 * region), the review handler under the ARN the platform serves it at (scripts/local/platform.ts,
 * serveLocalFunction(chatReviewRow, ...)), one logging configuration the platform creates in the
 * stand-in at start, as the stack's ChatLogs does.
 */
export const LOCAL_CHAT = {
  arnPrefix: 'arn:aws:ivschat:us-east-1:000000000000',
  reviewHandlerArn: localFunctionArn({ handler: 'chat/review-message' }),
  loggingConfigurationArn: 'arn:aws:ivschat:us-east-1:000000000000:logging-configuration/local',
};

/**
 * The local Event API: the AppSync Events stand-in (scripts/local/appsync-events) whose endpoints
 * the local platform puts in the host's LOCAL_APPSYNC_EVENTS_HTTP_URL and ..._REALTIME_URL when it
 * starts it (unset: nothing listens there).
 */
export const LOCAL_APPSYNC_EVENTS_API_ARN = 'arn:aws:appsync:us-east-1:000000000000:apis/localevents';
const localRealtime = () => ({
  apiArn: LOCAL_APPSYNC_EVENTS_API_ARN,
  httpUrl: host.LOCAL_APPSYNC_EVENTS_HTTP_URL ?? 'http://127.0.0.1:3004',
  realtimeUrl: host.LOCAL_APPSYNC_EVENTS_REALTIME_URL ?? 'ws://127.0.0.1:3004/event/realtime',
});

/** The local deployment: the values the stack's tokens resolve to on AWS, as local names. */
export const localDeployment = (): Deployment => {
  const tableName = host.TABLE_NAME ?? 'creator-streaming-local';
  const { kid } = localSigningKey();
  const streamName = 'creator-streaming-local-analytics';
  return {
    common: commonEnvironment({
      stage: 'local',
      siteUrl: host.SITE_URL ?? 'https://creators.example.com',
      cdnUrl: host.CDN_URL ?? 'https://cdn.example.com',
    }),
    tableName,
    tableArn: arn('dynamodb', `table/${tableName}`),
    signingKeyId: kid,
    signingKeyArn: arn('kms', `key/${kid}`),
    signingPublicJwk: localSigningPublicJwk(),
    googleClientId: LOCAL_GOOGLE_CLIENT_ID,
    analyticsStreamName: streamName,
    analyticsStreamArn: arn('firehose', `deliverystream/${streamName}`),
    // The IVS stand-in's account and region (scripts/local/ivs/api.ts), whatever the local region.
    ivsArnPrefix: 'arn:aws:ivs:us-east-1:000000000000',
    ivsRecordingConfigurationArn:
      host.IVS_RECORDING_CONFIGURATION_ARN ??
      'arn:aws:ivs:us-east-1:000000000000:recording-configuration/local',
    playbackKeySecretArn: LOCAL_PLAYBACK_KEY_SECRET_ARN,
    playbackAllowOrigin: host.PLAYBACK_ALLOW_ORIGIN ?? localPlaybackOrigins(),
    mediaKeySecretArn: LOCAL_MEDIA_KEY_SECRET_ARN,
    mediaKeyPairId: localMediaKey().kid,
    recordingsBucketName: LOCAL_RECORDINGS_BUCKET,
    recordingsBucketArn: `arn:aws:s3:::${LOCAL_RECORDINGS_BUCKET}`,
    webhooks: LOCAL_WEBHOOKS,
    payments: { stripeSecretArn: LOCAL_STRIPE_SECRET_ARN, ...PAYMENT_DEFAULTS },
    stores: {
      appStoreSecretArn: LOCAL_APP_STORE_SECRET_ARN,
      playSecretArn: LOCAL_PLAY_SECRET_ARN,
      ...STORE_DEFAULTS,
    },
    chat: LOCAL_CHAT,
    realtime: localRealtime(),
    mail: {
      from: LOCAL_MAIL.from,
      identityArn: arn('ses', `identity/${identityOf(LOCAL_MAIL.from)}`),
      configurationSetName: LOCAL_MAIL.configurationSet,
      configurationSetArn: arn('ses', `configuration-set/${LOCAL_MAIL.configurationSet}`),
    },
    accounts: {
      exportsBucketName: LOCAL_EXPORTS_BUCKET,
      exportsBucketArn: `arn:aws:s3:::${LOCAL_EXPORTS_BUCKET}`,
      pseudonymSecretArn: LOCAL_PSEUDONYM_SECRET_ARN,
      jobsQueueUrl: LOCAL_ACCOUNT_JOBS.queueUrl,
      jobsQueueArn: LOCAL_ACCOUNT_JOBS.queueArn,
    },
    secondFactor: {
      keyId: localSecondFactorKey().keyId,
      keyArn: arn('kms', `key/${localSecondFactorKey().keyId}`),
      codeKeyId: localOneTimeCodeKey().keyId,
      codeKeyArn: arn('kms', `key/${localOneTimeCodeKey().keyId}`),
      // The operator's setting (docs/operations.md, Context `creatorSecondFactor`).
      creators: host.CREATOR_SECOND_FACTOR === 'required' ? 'required' : 'prompt',
    },
  };
};

/** One function's invocation context. */
export interface FunctionContext {
  routeKey: string;
  env: Record<string, string>;
  policy: readonly Statement[];
}

/** A running invocation: its function's context and the request it serves (`currentRequestId`). */
interface Invocation extends FunctionContext {
  requestId: string;
}

const invocations = new AsyncLocalStorage<Invocation>();
const contexts = new Map<string, FunctionContext>();

/**
 * Each function's own access key id (its role's credentials on Lambda), so that a stand-in that
 * authorises SigV4-signed HTTP calls itself (AppSync Events' publish, which no SDK command makes)
 * knows whose policy to evaluate: `authorizeLocalCall`. The secret stays `local`.
 */
const accessKeyOf = (key: string) =>
  `LOCAL${createHmac('sha256', 'local').update(key).digest('hex').slice(0, 15).toUpperCase()}`;
const byAccessKey = new Map<string, FunctionContext>();

/** The context a function made from `row` gets: its environment and its policy. */
export const contextOf = (row: DeployedRow): FunctionContext => {
  const deployment = localDeployment();
  const key = functionKey(row);
  const context = {
    routeKey: key,
    env: { ...runtimeEnvironment(), AWS_ACCESS_KEY_ID: accessKeyOf(key), ...environmentOf(row, deployment) },
    policy: policyOf(row, deployment),
  };
  byAccessKey.set(accessKeyOf(key), context);
  return context;
};

/**
 * IAM for a signed HTTP call a stand-in received (scripts/local/appsync-events): may the function
 * whose access key signed it do `action` on `resource`? Recorded for the least-privilege report
 * like the SDK calls the guard sees. Unknown keys (not a function's) are refused.
 */
export const authorizeLocalCall = async (request: {
  accessKeyId: string;
  action: string;
  resource: string;
}): Promise<boolean> => {
  const context = byAccessKey.get(request.accessKeyId);
  if (!context) return false;
  const [, , service = '', region = '', account = ''] = request.resource.split(':');
  const needs = await needsOfCall({
    action: request.action,
    named: [request.resource],
    scope: `arn:aws:${service}:${region}:${account}`,
  });
  for (const need of needs) record(context, need);
  return (await refusedNeed(context.policy, needs)) === undefined;
};

/** The context of `row`'s function, derived once per process. */
export const functionContext = (row: DeployedRow): FunctionContext => {
  const key = functionKey(row);
  const context = contexts.get(key) ?? contextOf(row);
  contexts.set(key, context);
  return context;
};

/**
 * Runs `fn` as `context`'s function: its environment in process.env, its policy on every AWS call.
 * `requestId` names the request it serves (the local gateway passes its event's
 * `requestContext.requestId`); without one it serves the request of the invocation it was started
 * from (a queue's consumer, an invoked function), or a new one.
 */
export const runAsFunction = <T>(
  context: FunctionContext,
  fn: () => Promise<T>,
  requestId?: string,
): Promise<T> =>
  invocations.run(
    { ...context, requestId: requestId ?? invocations.getStore()?.requestId ?? randomUUID() },
    fn,
  );

/**
 * The request the running code serves (see `runAsFunction`), undefined outside any function: lets
 * a test tell which request made a call when requests run side by side (test/support/api.ts
 * `writesOf`).
 */
export const currentRequestId = (): string | undefined => invocations.getStore()?.requestId;

const installEnvironment = () => {
  const current = () => invocations.getStore()?.env;
  process.env = new Proxy(host, {
    get: (target, name) => {
      const env = current();
      return env && typeof name === 'string' ? env[name] : Reflect.get(target, name);
    },
    set: (target, name, value) => {
      const env = current();
      if (env && typeof name === 'string') env[name] = String(value);
      else Reflect.set(target, name, value);
      return true;
    },
    has: (target, name) => {
      const env = current();
      return env && typeof name === 'string' ? name in env : Reflect.has(target, name);
    },
    deleteProperty: (target, name) => {
      const env = current();
      if (env && typeof name === 'string') delete env[name];
      else Reflect.deleteProperty(target, name);
      return true;
    },
    ownKeys: (target) => {
      const env = current();
      return env ? Reflect.ownKeys(env) : Reflect.ownKeys(target);
    },
    getOwnPropertyDescriptor: (target, name) => {
      const env = current();
      return env
        ? Reflect.getOwnPropertyDescriptor(env, name)
        : Reflect.getOwnPropertyDescriptor(target, name);
    },
  });
};

// ── IAM: which action an SDK command is, and which ARNs it names ─────────────────────────────
// (Which resources IAM authorizes it on, and whether the policy allows them: ./iam.ts.)

const tableArn = (name: unknown, index?: unknown) =>
  arn('dynamodb', `table/${String(name)}${index ? `/index/${String(index)}` : ''}`);

/** `GetCommand` (lib-dynamodb) and `GetItemCommand` (client) both need dynamodb:GetItem. */
const DYNAMO_ACTIONS: Record<string, string> = {
  Get: 'GetItem',
  GetItem: 'GetItem',
  Put: 'PutItem',
  PutItem: 'PutItem',
  Update: 'UpdateItem',
  UpdateItem: 'UpdateItem',
  Delete: 'DeleteItem',
  DeleteItem: 'DeleteItem',
  Query: 'Query',
  Scan: 'Scan',
  BatchGet: 'BatchGetItem',
  BatchGetItem: 'BatchGetItem',
  BatchWrite: 'BatchWriteItem',
  BatchWriteItem: 'BatchWriteItem',
};
/** Transactions have no action of their own: each item needs its operation's action. */
const TRANSACT_ACTIONS: Record<string, string> = {
  Get: 'GetItem',
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  ConditionCheck: 'ConditionCheckItem',
};

type Input = Record<string, unknown>;

/** The IVS stand-in's account and region (scripts/local/ivs/api.ts), whatever the local region. */
const IVS_SCOPE = 'arn:aws:ivs:us-east-1:000000000000';

const dynamoCalls = (command: string, input: Input): Call[] => {
  const call = (action: string, resource: string): Call => ({
    action: `dynamodb:${action}`,
    named: [resource],
    scope: arn('dynamodb', '').slice(0, -1),
  });
  if (command === 'TransactWrite' || command === 'TransactWriteItems' || command.startsWith('TransactGet')) {
    return ((input.TransactItems ?? []) as Array<Record<string, Input>>).flatMap((item) =>
      Object.entries(item).map(([operation, body]) =>
        call(TRANSACT_ACTIONS[operation] ?? operation, tableArn(body.TableName)),
      ),
    );
  }
  const action = DYNAMO_ACTIONS[command];
  if (!action) return [call(command, tableArn(input.TableName))];
  if (action === 'BatchGetItem' || action === 'BatchWriteItem') {
    return Object.keys((input.RequestItems ?? {}) as Input).map((name) => call(action, tableArn(name)));
  }
  return [call(action, tableArn(input.TableName, input.IndexName))];
};

/** The ARNs a command names in its input (which of them IAM authorizes on is ./iam.ts's question). */
const namedBy = (service: string, input: Input): string[] => {
  const named = (value: unknown) => (value ? [String(value)] : []);
  switch (service) {
    case 'kms':
      return [arn('kms', `key/${String(input.KeyId)}`)];
    case 'ivs':
      return [...named(input.arn), ...named(input.channelArn), ...named(input.recordingConfigurationArn)];
    case 'ivschat':
      // Rooms by `identifier` (DeleteRoom, UpdateRoom) or `roomIdentifier` (tokens, messages,
      // users, events); CreateRoom names its logging configurations (no resource type of it).
      return [
        ...named(input.identifier),
        ...named(input.roomIdentifier),
        ...((input.loggingConfigurationIdentifiers as string[] | undefined) ?? []),
      ];
    case 'sqs':
      return [queueArnOfUrl(String(input.QueueUrl))];
    case 'secretsmanager':
      return named(input.SecretId);
    case 's3':
      return [`arn:aws:s3:::${String(input.Bucket)}/${String(input.Key)}`];
    case 'firehose':
      return [arn('firehose', `deliverystream/${String(input.DeliveryStreamName)}`)];
    case 'ses': {
      // SendEmail: the identity the From address is sent under, and the configuration set when named.
      const from = String(input.FromEmailAddress ?? '');
      const address = /<([^>]+)>\s*$/.exec(from)?.[1] ?? from;
      return [
        input.FromEmailAddressIdentityArn
          ? String(input.FromEmailAddressIdentityArn)
          : arn('ses', `identity/${identityOf(address)}`),
        ...(input.ConfigurationSetName
          ? [arn('ses', `configuration-set/${String(input.ConfigurationSetName)}`)]
          : []),
      ];
    }
    default:
      return [];
  }
};

/**
 * Operations the Service Authorization Reference's operations table maps to a second action when
 * they create with tags (tag on create): IVS Chat's CreateRoom and CreateLoggingConfiguration also
 * need `ivschat:TagResource` on what they make.
 */
const TAG_ON_CREATE: Record<string, Record<string, string>> = {
  // The resource each makes, by its ARN's resource part (any id: the call cannot know it).
  ivschat: { CreateRoom: 'room/*', CreateLoggingConfiguration: 'logging-configuration/*' },
};

const callsOf = (service: string, commandName: string, input: Input): Call[] => {
  const command = commandName.replace(/Command$/, '');
  if (service === 'dynamodb') return dynamoCalls(command, input);
  if (service === 'events') {
    // PutEvents on each entry's bus (a name or an ARN), as IAM authorizes it.
    return ((input.Entries ?? []) as Input[]).map((entry) => {
      const bus = String(entry.EventBusName ?? 'default');
      return {
        action: `events:${command}`,
        named: [bus.startsWith('arn:') ? bus : arn('events', `event-bus/${bus}`)],
        scope: arn('events', '').slice(0, -1),
      };
    });
  }
  const scope =
    service === 'ivs'
      ? IVS_SCOPE
      : service === 'ivschat'
        ? LOCAL_CHAT.arnPrefix
        : arn(service, '').slice(0, -1);
  const call = { action: `${service}:${command}`, named: namedBy(service, input), scope };
  const made = TAG_ON_CREATE[service]?.[command];
  const tagged = made && Object.keys((input.tags ?? {}) as Input).length > 0;
  return tagged ? [call, { action: `${service}:TagResource`, named: [`${scope}:${made}`], scope }] : [call];
};

/** The requests IAM authorizes for one SDK command (./iam.ts `needsOfCall`). */
export const needsOf = async (service: string, command: string, input: Input): Promise<Need[]> =>
  (await Promise.all(callsOf(service, command, input).map(needsOfCall))).flat();

const accessDenied = (context: FunctionContext, need: Need) =>
  Object.assign(
    new Error(
      `User: arn:aws:sts::${ACCOUNT}:assumed-role/${context.routeKey.replace(/\W+/g, '-')}/local is not authorized to perform: ${need.action} on resource: ${need.resource} because no identity-based policy allows the ${need.action} action`,
    ),
    { name: 'AccessDeniedException', $fault: 'client', $metadata: { httpStatusCode: 400 } },
  );

// ── Usage record: what each function called, for the least-privilege test ──────────────────

const recorded = new Set<string>();
/** With IAM_USAGE_DIR set (the integration tests), each distinct call is appended to a file there. */
const record = (context: FunctionContext, need: Need) => {
  const dir = host.IAM_USAGE_DIR;
  if (!dir) return;
  const line = JSON.stringify({ route: context.routeKey, action: need.action, resource: need.resource });
  if (recorded.has(line)) return;
  recorded.add(line);
  mkdirSync(dir, { recursive: true });
  appendFileSync(join(dir, `${process.pid}.ndjson`), `${line}\n`);
};

// ── Stand-ins for services with no local emulator ───────────────────────────────────────────

const namedError = (name: string, message: string) =>
  Object.assign(new Error(message), { name, $fault: 'client', $metadata: {} });
const notFound = (message: string) => namedError('NotFoundException', message);

let signingKey: ReturnType<typeof localSigningKey> | undefined;
const kmsKey = (keyId: unknown) => {
  signingKey ??= localSigningKey();
  const key = signingKey;
  if (keyId !== key.kid) throw notFound(`Key '${String(keyId)}' does not exist`);
  return key;
};

const writtenSecrets = new Map<string, string>();

/**
 * KMS Encrypt/Decrypt with the local second-factor key: AES-256-GCM, the encryption context as
 * additional data (a ciphertext opens only under the context it was made with, as on KMS), the
 * blob `key id length | key id | iv | tag | ciphertext`.
 */
const symmetricKey = (keyId: unknown) => {
  const key = localSecondFactorKey();
  if (keyId !== key.keyId) throw notFound(`Key '${String(keyId)}' does not exist`);
  return key;
};
const contextBytes = (context: unknown) =>
  Buffer.from(JSON.stringify(Object.entries((context ?? {}) as Record<string, string>).sort()));
const invalidCiphertext = () => namedError('InvalidCiphertextException', 'The ciphertext is invalid');

const STAND_INS: Record<string, Record<string, (input: Input) => Promise<unknown>>> = {
  kms: {
    Sign: async (input) => {
      const { privateKey, kid } = kmsKey(input.KeyId);
      const signature = sign('sha256', Buffer.from(input.Message as Uint8Array), privateKey);
      return { KeyId: kid, Signature: new Uint8Array(signature), SigningAlgorithm: input.SigningAlgorithm };
    },
    Encrypt: async (input) => {
      const { keyId, secret } = symmetricKey(input.KeyId);
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', secret, iv).setAAD(contextBytes(input.EncryptionContext));
      const sealed = Buffer.concat([cipher.update(input.Plaintext as Uint8Array), cipher.final()]);
      const id = Buffer.from(keyId);
      const blob = Buffer.concat([Buffer.from([id.length]), id, iv, cipher.getAuthTag(), sealed]);
      return { KeyId: keyId, CiphertextBlob: new Uint8Array(blob), EncryptionAlgorithm: 'SYMMETRIC_DEFAULT' };
    },
    Decrypt: async (input) => {
      const { keyId, secret } = symmetricKey(input.KeyId);
      const blob = Buffer.from(input.CiphertextBlob as Uint8Array);
      const idLength = blob[0] ?? 0;
      if (blob.subarray(1, 1 + idLength).toString() !== keyId) throw invalidCiphertext();
      const iv = blob.subarray(1 + idLength, 13 + idLength);
      const tag = blob.subarray(13 + idLength, 29 + idLength);
      try {
        const decipher = createDecipheriv('aes-256-gcm', secret, iv)
          .setAAD(contextBytes(input.EncryptionContext))
          .setAuthTag(tag);
        const plain = Buffer.concat([decipher.update(blob.subarray(29 + idLength)), decipher.final()]);
        return { KeyId: keyId, Plaintext: new Uint8Array(plain), EncryptionAlgorithm: 'SYMMETRIC_DEFAULT' };
      } catch {
        throw invalidCiphertext();
      }
    },
    // The HMAC_256 keys: webhook secrets derive from one, one-time codes are stored as MACs under the other.
    GenerateMac: async (input) => {
      const keys: Record<string, () => Buffer> = {
        [LOCAL_WEBHOOKS.keyId]: localWebhookHmacKey,
        [localOneTimeCodeKey().keyId]: () => localOneTimeCodeKey().secret,
      };
      const key = keys[String(input.KeyId)];
      if (!key) throw notFound(`Key '${String(input.KeyId)}' does not exist`);
      if (input.MacAlgorithm !== 'HMAC_SHA_256')
        throw namedError('InvalidKeyUsageException', 'HMAC_SHA_256 only');
      const mac = createHmac('sha256', key())
        .update(Buffer.from(input.Message as Uint8Array))
        .digest();
      return { KeyId: String(input.KeyId), Mac: new Uint8Array(mac), MacAlgorithm: 'HMAC_SHA_256' };
    },
    // What the stack's signing-public-key resource reads at deploy (infra/handlers/signing-public-key.ts).
    GetPublicKey: async (input) => {
      const { privateKey, kid } = kmsKey(input.KeyId);
      const der = createPublicKey(privateKey).export({ type: 'spki', format: 'der' });
      return {
        KeyId: kid,
        PublicKey: new Uint8Array(der),
        KeySpec: 'ECC_NIST_P256',
        KeyUsage: 'SIGN_VERIFY',
      };
    },
  },
  secretsmanager: {
    // A secret written in this process (the key pair resource's generations) is read back as written.
    PutSecretValue: async (input) => {
      writtenSecrets.set(String(input.SecretId), String(input.SecretString));
      return { ARN: String(input.SecretId), VersionId: randomUUID() };
    },
    GetSecretValue: async (input) => {
      const written = writtenSecrets.get(String(input.SecretId));
      if (written !== undefined) return { ARN: String(input.SecretId), SecretString: written };
      const secret = localSecrets[String(input.SecretId)];
      const value = secret?.value();
      if (!secret || value === undefined)
        throw namedError('ResourceNotFoundException', "Secrets Manager can't find the specified secret.");
      return { ARN: String(input.SecretId), Name: secret.name, SecretString: value };
    },
  },
  s3: {
    // The recordings bucket only; other buckets are the S3 stand-in's (scripts/local/s3.ts).
    GetObject: async (input) => {
      if (input.Bucket !== LOCAL_RECORDINGS_BUCKET) return undefined;
      const file = join(recordingsRoot(), String(input.Bucket), String(input.Key));
      const body = await readFile(file).catch(() => {
        throw namedError('NoSuchKey', 'The specified key does not exist.');
      });
      // The SDK's stream body: a Readable with the transform helpers callers use.
      const stream = Object.assign(Readable.from([body]), {
        transformToString: async (encoding: BufferEncoding = 'utf8') => body.toString(encoding),
        transformToByteArray: async () => new Uint8Array(body),
      });
      return { Body: stream, ContentLength: body.length };
    },
  },
  firehose: {
    PutRecordBatch: async (input) => {
      const records = (input.Records as Array<{ Data: Uint8Array }>).map(
        (r) => JSON.parse(Buffer.from(r.Data).toString('utf8')) as AnalyticsRecord,
      );
      await localAnalytics.put(records);
      return {
        FailedPutCount: 0,
        RequestResponses: records.map((_, i) => ({ RecordId: String(i) })),
      };
    },
  },
};

/** Analytics land where ANALYTICS_DIR (of the host, read per call) says, as on S3 after Firehose. */
const localAnalytics = fileSink(
  () => host.ANALYTICS_DIR ?? resolve(import.meta.dirname, '../../.local/analytics'),
);

/** Kept only once a test asks (`recordAwsCalls`): a long `npm start` keeps nothing per request. */
let callsByRequest: Map<string, string[]> | undefined;
export const recordAwsCalls = (): void => {
  callsByRequest ??= new Map();
};
/**
 * Every AWS call (any service) made for the request `requestId` names (`currentRequestId`) since
 * `recordAwsCalls`, in the order sent, as `<function> <service>:<command>`, e.g.
 * `POST /auth/password/forgot sqs:SendMessage`: by the route's function and by any it started (a
 * queue's consumer run for a message it sent). Lets a test compare the work of two answers,
 * whatever the service.
 */
export const awsCallsOf = (requestId: string): readonly string[] => callsByRequest?.get(requestId) ?? [];

const guard = (client: HookableClient, service: string) => {
  const standIns = { ...STAND_INS[service], ...webhookStandIns[service] };
  client.middlewareStack.add(
    ((next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) =>
      async (args: { input: Input }) => {
        const command = String(context.commandName ?? '').replace(/Command$/, '');
        const invocation = invocations.getStore();
        if (invocation) {
          callsByRequest?.set(invocation.requestId, [
            ...(callsByRequest.get(invocation.requestId) ?? []),
            `${invocation.routeKey} ${service}:${command}`,
          ]);
          const needs = await needsOf(service, command, args.input);
          for (const need of needs) record(invocation, need);
          const refused = await refusedNeed(invocation.policy, needs);
          if (refused) throw accessDenied(invocation, refused);
        }
        // A stand-in answers undefined for what it does not serve (then the call goes on, to the
        // endpoint the SDK was given: scripts/local/s3.ts for the exports bucket).
        const output = await standIns[command]?.(args.input);
        if (output !== undefined) return { output: { $metadata: {}, ...(output as object) }, response: {} };
        return next(args);
      }) as never,
    { step: 'initialize', name: 'localIamGuard', priority: 'high' } as never,
  );
};

/** What a client's `config.requestHandler` is (NodeHttpHandler's shape, as far as this file uses it). */
interface RequestHandlerLike {
  handle(request: unknown, options?: unknown): Promise<unknown>;
  destroy?(): void;
  updateHttpClientConfig?(key: never, value: never): void;
  httpHandlerConfigs?(): unknown;
  metadata?: unknown;
  /** NodeHttpHandler's resolved settings: timeouts and its own agents. */
  configProvider?: Promise<Record<string, unknown>>;
}

/**
 * Each function's own sockets, as each Lambda container has its own. Every function runs in this
 * one process and a module-scope client (the table's `dynamo`) is shared by all of them, so its one
 * request handler (the SDK's NodeHttpHandler: an agent of 50 sockets, a first-in first-out queue
 * beyond) would make a route's calls wait behind whatever another function queued: under
 * `npm start -- --scale 10` the realtime tick's ~1,500 reads every 5 s (737 live channels) held a
 * warm `GET /creators` for up to 18 s. Here each function (the invocation's `routeKey`; code run
 * outside any function keeps the client's own handler) sends through a handler of its own, made
 * with the client's settings (timeouts) and fresh agents.
 */
const socketsPerFunction = (client: HookableClient) => {
  const config = (client as { config?: { requestHandler?: RequestHandlerLike } }).config;
  const shared = config?.requestHandler;
  if (!config || !shared || typeof shared.handle !== 'function' || !shared.configProvider) return;
  const Handler = shared.constructor as new (options: () => Promise<unknown>) => RequestHandlerLike;
  const settings = shared.configProvider.then(({ httpAgent, httpsAgent, ...rest }) => rest);
  const handlers = new Map<string, RequestHandlerLike>();
  const handlerOf = (): RequestHandlerLike => {
    const key = invocations.getStore()?.routeKey;
    if (key === undefined) return shared;
    let handler = handlers.get(key);
    if (!handler) {
      handler = new Handler(() => settings);
      handlers.set(key, handler);
    }
    return handler;
  };
  config.requestHandler = {
    metadata: shared.metadata,
    handle: (request, options) => handlerOf().handle(request, options),
    updateHttpClientConfig: (key, value) => {
      for (const handler of [shared, ...handlers.values()]) handler.updateHttpClientConfig?.(key, value);
    },
    httpHandlerConfigs: () => shared.httpHandlerConfigs?.() ?? {},
    destroy: () => {
      for (const handler of [shared, ...handlers.values()]) handler.destroy?.();
    },
  };
};

let installed = false;
/** Installs the environment switch, the IAM guard and the stand-ins (idempotent). */
export const installLocalAws = (): void => {
  if (installed) return;
  installed = true;
  installEnvironment();
  installClientHook((client, service) => {
    guard(client, service);
    socketsPerFunction(client);
  });
  // Container state (caches, loaded keys) is kept per function, as separate Lambda containers would.
  installContainerId(() => invocations.getStore()?.routeKey ?? '');
};

/**
 * For code run outside any function (tests calling domain code directly, the benchmark's
 * in-process handlers): the deployment's settings in the process environment, unless set.
 */
export const useDeploymentSettings = (): void => {
  const deployment = localDeployment();
  const settings: Record<string, string> = {
    TABLE_NAME: deployment.tableName,
    SIGNING_KEY_ID: deployment.signingKeyId,
    SIGNING_PUBLIC_JWK: deployment.signingPublicJwk,
    ANALYTICS_STREAM_NAME: deployment.analyticsStreamName,
    PLAYBACK_KEY_SECRET_ARN: deployment.playbackKeySecretArn,
    PLAYBACK_ALLOW_ORIGIN: deployment.playbackAllowOrigin,
    MEDIA_KEY_SECRET_ARN: deployment.mediaKeySecretArn,
    MEDIA_KEY_PAIR_ID: deployment.mediaKeyPairId,
    ...(deployment.accounts
      ? {
          EXPORTS_BUCKET: deployment.accounts.exportsBucketName,
          PSEUDONYM_SECRET_ARN: deployment.accounts.pseudonymSecretArn,
          ACCOUNT_JOBS_QUEUE_URL: deployment.accounts.jobsQueueUrl,
        }
      : {}),
    ...(deployment.secondFactor
      ? {
          SECOND_FACTOR_KEY_ID: deployment.secondFactor.keyId,
          ONE_TIME_CODE_KEY_ID: deployment.secondFactor.codeKeyId,
        }
      : {}),
    STAGE: deployment.common.STAGE ?? 'local',
    CHAT_REVIEW_HANDLER_ARN: LOCAL_CHAT.reviewHandlerArn,
    CHAT_LOGGING_CONFIGURATION_ARN: LOCAL_CHAT.loggingConfigurationArn,
    ...(deployment.payments
      ? {
          STRIPE_SECRET_ARN: deployment.payments.stripeSecretArn,
          PAYMENT_GRACE_DAYS: deployment.payments.graceDays,
          APPLICATION_FEE_PERCENT: deployment.payments.applicationFeePercent,
        }
      : {}),
    ...(deployment.stores
      ? {
          APP_STORE_SECRET_ARN: deployment.stores.appStoreSecretArn,
          APPLE_BUNDLE_ID: deployment.stores.appleBundleId,
          APPLE_APP_ID: deployment.stores.appleAppId,
          APPLE_ENVIRONMENT: deployment.stores.appleEnvironment,
          APPLE_ONLINE_CHECKS: deployment.stores.appleOnlineChecks,
          PLAY_SECRET_ARN: deployment.stores.playSecretArn,
          GOOGLE_PLAY_PACKAGE: deployment.stores.playPackageName,
          PLAY_PUSH_AUDIENCE: deployment.stores.playPushAudience,
          PLAY_PUSH_SERVICE_ACCOUNT: deployment.stores.playPushServiceAccount,
          STORE_PRODUCT_PREFIX: deployment.stores.productPrefix,
        }
      : {}),
  };
  for (const [name, value] of Object.entries(settings)) host[name] ??= value;
};
