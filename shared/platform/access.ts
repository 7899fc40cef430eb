import {
  ACCOUNTS_PLACEHOLDERS,
  type AccountsDeployment,
  accountEnvironment,
  accountStatements,
} from '../accounts/access.ts';
import { CHAT_PLACEHOLDERS, type ChatDeployment, chatEnvironment, chatStatements } from '../chat/access.ts';
import { isStudioRoute, type RouteRow, type Statement } from '../routing/route.ts';
import { type FunctionRow, functionKey, type Need, type WorkerRow } from '../routing/function-row.ts';
import {
  PAYMENT_PLACEHOLDERS,
  type PaymentDeployment,
  paymentEnvironment,
  paymentStatements,
} from '../payments/access.ts';
import {
  type MailDeployment,
  mailEnvironment,
  MAIL_PLACEHOLDERS,
  mailStatements,
  sendsMail,
} from '../mail/access.ts';
import {
  SECOND_FACTOR_PLACEHOLDERS,
  type SecondFactorDeployment,
  secondFactorEnvironment,
  secondFactorStatements,
} from '../identity/second-factor-access.ts';
import {
  STORE_PLACEHOLDERS,
  type StoreDeployment,
  storeEnvironment,
  storeStatements,
} from '../stores/access.ts';
import {
  WEBHOOK_PLACEHOLDERS,
  type WebhookDeployment,
  webhookEnvironment,
  webhookStatements,
} from '../webhooks/access.ts';
import {
  REALTIME_PLACEHOLDERS,
  type RealtimeDeployment,
  realtimeEnvironment,
  realtimeStatements,
} from '../realtime/access.ts';

/**
 * What a function may do and what it is given, derived from its row alone (a route's or a worker's:
 * shared/routing/function-row.ts): its IAM policy
 * (the stack grants exactly these statements; the local platform's guard refuses anything else)
 * and its environment (the stack sets exactly these variables; the local platform runs the
 * handler with exactly these). One derivation for both, so local and AWS cannot drift.
 */

/** The deployment's values a function's grants and settings refer to: CDK tokens on AWS, local names locally. */
export interface Deployment {
  /** Variables every function gets (STAGE, service name, public origins); see `commonEnvironment`. */
  common: Record<string, string>;
  tableName: string;
  tableArn: string;
  /** The access-token signing key (KMS, ECC_NIST_P256): signers name it in kms:Sign. */
  signingKeyId: string;
  signingKeyArn: string;
  /**
   * Its public half as a compact JWK (JSON text, kid = the key id): computed once at deploy by the
   * stack's `Custom::SigningPublicKey` resource (infra/signing-public-key.ts), locally from the
   * local key. Verifying functions read it from `SIGNING_PUBLIC_JWK` and never call KMS.
   */
  signingPublicJwk: string;
  googleClientId: string;
  analyticsStreamName: string;
  analyticsStreamArn: string;
  /** `arn:aws:ivs:<region>:<account>`: the account's IVS resources (channels and keys are made at run time). */
  ivsArnPrefix: string;
  /** The stack's IVS recording configuration (every channel records to the recordings bucket). */
  ivsRecordingConfigurationArn: string;
  /**
   * The Secrets Manager secret holding the private half of the current IVS playback key pair
   * (PEM, P-384): its ARN only; functions read the value at init (shared/playback/ivs-token.ts).
   */
  playbackKeySecretArn: string;
  /** `aws:access-control-allow-origin` of playback tokens: the web app's origin. */
  playbackAllowOrigin: string;
  /**
   * The secret holding the private half of the media CDN's current signing key (PEM, RSA-2048)
   * and the id of its CloudFront public key (shared/playback/media-key.ts).
   */
  mediaKeySecretArn: string;
  mediaKeyPairId: string;
  /** The bucket IVS records broadcasts into (infra/live-video.ts) and its ARN. */
  recordingsBucketName: string;
  recordingsBucketArn: string;
  /** Webhooks (infra/webhooks.ts): the secrets' HMAC key, the delivery queue and its dead letters. */
  webhooks?: WebhookDeployment;
  /** Payments (infra/payments.ts): the Stripe secret and the payment settings. */
  payments?: PaymentDeployment;
  /** App stores (infra/payments.ts): the App Store and Play secrets, the apps' identities. */
  stores?: StoreDeployment;
  /** Mail (infra/mail.ts): the sending identity and the configuration set, for rows that need `mailer`. */
  mail?: MailDeployment;
  /** Accounts (infra/accounts.ts): the exports bucket and the analytics pseudonym key. */
  accounts?: AccountsDeployment;
  /** Live chat (infra/chat.ts): the account's IVS Chat rooms, the review handler, the logging configuration. */
  chat?: ChatDeployment;
  /** The second factor and one-time codes (stack: the TOTP key, the one-time-code HMAC key, the `creatorSecondFactor` setting). */
  secondFactor?: SecondFactorDeployment;
  /** Live state pushed to viewers (infra/realtime.ts): the AppSync Event API. */
  realtime?: RealtimeDeployment;
}

export type { Statement };

/** The stack-wide settings every function receives, built the same way by the stack and locally. */
export const commonEnvironment = (values: {
  stage: string;
  siteUrl: string;
  cdnUrl: string;
}): Record<string, string> => ({
  STAGE: values.stage,
  POWERTOOLS_SERVICE_NAME: 'creator-streaming',
  POWERTOOLS_METRICS_NAMESPACE: 'CreatorStreaming',
  SITE_URL: values.siteUrl,
  CDN_URL: values.cdnUrl,
});

/** Any row the stack makes a function from: an HTTP route or an event worker. */
export type DeployedRow = RouteRow | WorkerRow;

/**
 * What a route adds to its function's needs, as a function row: the UpdateItem of a rate limit's
 * budget counter, the token verifier of a route whose auth is not `none`, the second-factor
 * policy of a `/studio/...` route. A worker's row is its function row.
 */
export const functionOf = (row: DeployedRow): FunctionRow => {
  if ('trigger' in row) return row;
  const needs = new Set<Need>(row.needs ?? []);
  if (row.auth !== 'none') needs.add('token-verifier');
  if (isStudioRoute(row)) needs.add('second-factor-policy');
  const actions = new Set(row.dynamo?.actions ?? []);
  if (row.rateLimit) actions.add('UpdateItem');
  return {
    ...row,
    ...(actions.size > 0 || row.dynamo ? { dynamo: { ...row.dynamo, actions: [...actions] } } : {}),
    ...(needs.size > 0 ? { needs: [...needs] } : {}),
  };
};

/** DynamoDB actions of a row: what it declares, plus UpdateItem when the middleware counts a rate limit. */
export const dynamoActionsOf = (row: DeployedRow): string[] => tableActionsOf(functionOf(row));

/** Does the function's row name `need`? */
const needs = (need: Need) => (fn: FunctionRow) => fn.needs?.includes(need) ?? false;

/**
 * One capability a function may have: when it has it (from its function row), the IAM statements
 * it is granted and the environment it is given for it. The stack and the local platform both
 * read `CAPABILITIES`, so a grant and its settings are declared once, side by side.
 */
export interface Capability {
  /** What the row names (a need, table access, IVS actions...), for docs/permissions.md. */
  name: string;
  statements?: (fn: FunctionRow, d: Deployment) => Statement[];
  environment?: (fn: FunctionRow, d: Deployment) => Record<string, string>;
}

/** `when(has, value)`: value when the row has the capability, nothing otherwise. */
const when = <T>(has: boolean, value: () => T[]): T[] => (has ? value() : []);
const whenEnv = (has: boolean, value: () => Record<string, string>): Record<string, string> =>
  has ? value() : {};

/** The IVS actions of a row on the resource types IAM authorizes each on (see `CAPABILITIES`). */
const ivsStatements = (fn: FunctionRow, d: Deployment): Statement[] => {
  const ivs = new Set<string>(fn.ivs ?? []);
  const channels = `${d.ivsArnPrefix}:channel/*`;
  const streamKeys = `${d.ivsArnPrefix}:stream-key/*`;
  return (
    [
      [
        [channels, streamKeys],
        ['CreateChannel', 'DeleteChannel', 'ListStreamKeys'],
      ],
      [[channels], ['GetChannel', 'GetStream', 'PutMetadata', 'StartViewerSessionRevocation', 'StopStream']],
      [[streamKeys], ['CreateStreamKey', 'DeleteStreamKey', 'GetStreamKey']],
      [['*'], ['ListStreams']],
    ] as const
  ).flatMap(([resources, actions]) => {
    const granted = actions.filter((action) => ivs.has(action)).sort();
    return granted.length > 0 ? [{ actions: granted.map((a) => `ivs:${a}`), resources: [...resources] }] : [];
  });
};

/**
 * Every capability, in the order the stack writes its statements and variables
 * (docs/permissions.md "What a row declares" lists the same). The domains' own capabilities
 * (webhooks, payments, stores, mail, accounts, chat, the second factor, realtime) are each one
 * row here, declared in their domain's `access.ts` beside their deployment's values.
 */
export const CAPABILITIES: readonly Capability[] = [
  {
    name: 'dynamo.actions (and a rate limit, the mailer)',
    statements: (fn, d) => {
      const actions = tableActionsOf(fn);
      return when(actions.length > 0, () => [{ actions, resources: [d.tableArn] }]);
    },
    environment: (fn, d) =>
      whenEnv(tableActionsOf(fn).length > 0 || (fn.dynamo?.indexes?.length ?? 0) > 0, () => ({
        TABLE_NAME: d.tableName,
      })),
  },
  {
    name: 'dynamo.indexes',
    statements: (fn, d) => {
      const indexes = fn.dynamo?.indexes ?? [];
      return when(indexes.length > 0, () => [
        { actions: ['dynamodb:Query'], resources: indexes.map((name) => `${d.tableArn}/index/${name}`) },
      ]);
    },
  },
  {
    // Signing access tokens with the KMS key; the Google client id the sign-in checks tokens for.
    name: 'token-signer',
    statements: (fn, d) =>
      when(needs('token-signer')(fn), () => [{ actions: ['kms:Sign'], resources: [d.signingKeyArn] }]),
    environment: (fn, d) =>
      whenEnv(needs('token-signer')(fn), () => ({
        SIGNING_KEY_ID: d.signingKeyId,
        GOOGLE_CLIENT_ID: d.googleClientId,
      })),
  },
  {
    // Verifiers need no KMS grant: the public key is in their environment.
    name: 'token-verifier (and every route whose auth is not none)',
    environment: (fn, d) =>
      whenEnv(needs('token-verifier')(fn), () => ({ SIGNING_PUBLIC_JWK: d.signingPublicJwk })),
  },
  {
    name: 'analytics-sink',
    statements: (fn, d) =>
      when(needs('analytics-sink')(fn), () => [
        { actions: ['firehose:PutRecordBatch'], resources: [d.analyticsStreamArn] },
      ]),
    environment: (fn, d) =>
      whenEnv(needs('analytics-sink')(fn), () => ({ ANALYTICS_STREAM_NAME: d.analyticsStreamName })),
  },
  {
    name: 'playback-signer',
    statements: (fn, d) =>
      when(needs('playback-signer')(fn), () => [
        { actions: ['secretsmanager:GetSecretValue'], resources: [d.playbackKeySecretArn] },
      ]),
    environment: (fn, d) =>
      whenEnv(needs('playback-signer')(fn), () => ({
        PLAYBACK_KEY_SECRET_ARN: d.playbackKeySecretArn,
        PLAYBACK_ALLOW_ORIGIN: d.playbackAllowOrigin,
      })),
  },
  {
    name: 'media-signer',
    statements: (fn, d) =>
      when(needs('media-signer')(fn), () => [
        { actions: ['secretsmanager:GetSecretValue'], resources: [d.mediaKeySecretArn] },
      ]),
    environment: (fn, d) =>
      whenEnv(needs('media-signer')(fn), () => ({
        MEDIA_KEY_SECRET_ARN: d.mediaKeySecretArn,
        MEDIA_KEY_PAIR_ID: d.mediaKeyPairId,
      })),
  },
  {
    name: 'recordings-reader',
    statements: (fn, d) =>
      when(needs('recordings-reader')(fn), () => [
        { actions: ['s3:GetObject'], resources: [`${d.recordingsBucketArn}/*`] },
      ]),
    environment: (fn, d) =>
      whenEnv(needs('recordings-reader')(fn), () => ({ RECORDINGS_BUCKET: d.recordingsBucketName })),
  },
  {
    // Each action on every resource type IAM authorizes it on (the Service Authorization
    // Reference: CreateChannel, DeleteChannel and ListStreamKeys on the channel AND its stream
    // key, CreateStreamKey on the key it makes; docs/permissions.md). Channels and keys are made
    // at run time, so by ARN pattern. CreateChannel is not authorized on the recording
    // configuration it names, nor does its `tags` need ivs:TagResource.
    name: 'ivs',
    statements: ivsStatements,
    environment: (fn, d) =>
      whenEnv(fn.ivs?.includes('CreateChannel') ?? false, () => ({
        IVS_RECORDING_CONFIGURATION_ARN: d.ivsRecordingConfigurationArn,
      })),
  },
  {
    name: 'webhook-secrets, webhook-outbox, webhook-dead-letters',
    statements: (fn, d) => webhookStatements(fn, d.webhooks),
    environment: (fn, d) => webhookEnvironment(fn, d.webhooks),
  },
  {
    name: 'stripe, payment-settings',
    statements: (fn, d) => paymentStatements(fn, d.payments),
    environment: (fn, d) => paymentEnvironment(fn, d.payments),
  },
  {
    name: 'app-store, google-play',
    statements: (fn, d) => storeStatements(fn, d.stores),
    environment: (fn, d) => storeEnvironment(fn, d.stores),
  },
  {
    name: 'mailer',
    statements: (fn, d) => mailStatements(fn, d.mail),
    environment: (fn, d) => mailEnvironment(fn, d.mail),
  },
  {
    name: 'exports-writer, exports-reader, analytics-pseudonym, account-jobs',
    statements: (fn, d) => accountStatements(fn, d.accounts),
    environment: (fn, d) => accountEnvironment(fn, d.accounts),
  },
  {
    name: 'ivsChat',
    statements: (fn, d) => chatStatements(fn, d.chat),
    environment: (fn, d) => chatEnvironment(fn, d.chat),
  },
  {
    name: 'totp-encrypt, totp-decrypt, second-factor-policy (every studio route), one-time-codes',
    statements: (fn, d) => secondFactorStatements(fn, d.secondFactor),
    environment: (fn, d) => secondFactorEnvironment(fn, d.secondFactor),
  },
  {
    name: 'realtime-publisher, realtime-endpoint',
    statements: (fn, d) => realtimeStatements(fn, d.realtime),
    environment: (fn, d) => realtimeEnvironment(fn, d.realtime),
  },
];

/** The table actions of a function row: its own, plus GetItem when it sends mail. */
const tableActionsOf = (fn: FunctionRow): string[] => {
  const actions = new Set(fn.dynamo?.actions ?? []);
  // The mailer reads the address's suppression item before each send (shared/mail/suppression-repository.ts).
  if (sendsMail(fn)) actions.add('GetItem');
  return [...actions].sort().map((action) => `dynamodb:${action}`);
};

/** The function's IAM statements beyond logs and tracing (which every function gets). */
export const policyOf = (row: DeployedRow, d: Deployment): Statement[] => {
  const fn = functionOf(row);
  return CAPABILITIES.flatMap((capability) => capability.statements?.(fn, d) ?? []);
};

/** The function's environment: the common settings plus what its row needs, nothing else. */
export const environmentOf = (row: DeployedRow, d: Deployment): Record<string, string> => {
  const fn = functionOf(row);
  const key = functionKey(row);
  const env: Record<string, string> = { ...d.common, ROUTE_KEY: key };
  // The media CDN's origins (`$cdn/…`): the distribution names them, so they cannot name it (a cycle).
  if (key.startsWith('$cdn/')) delete env.CDN_URL;
  for (const capability of CAPABILITIES) Object.assign(env, capability.environment?.(fn, d));
  if ('successLog' in row && row.successLog) env.SUCCESS_LOG_EVERY = String(row.successLog.every);
  return env;
};

/** The names of every variable the stack gives `row`'s function (values aside). */
export const settingsOf = (row: DeployedRow): string[] => {
  const placeholder = 'x';
  const common = commonEnvironment({
    stage: placeholder,
    siteUrl: placeholder,
    cdnUrl: placeholder,
  });
  return Object.keys(
    environmentOf(row, {
      common,
      tableName: placeholder,
      tableArn: placeholder,
      signingKeyId: placeholder,
      signingKeyArn: placeholder,
      signingPublicJwk: placeholder,
      googleClientId: placeholder,
      analyticsStreamName: placeholder,
      analyticsStreamArn: placeholder,
      ivsArnPrefix: placeholder,
      ivsRecordingConfigurationArn: placeholder,
      playbackKeySecretArn: placeholder,
      playbackAllowOrigin: placeholder,
      mediaKeySecretArn: placeholder,
      mediaKeyPairId: placeholder,
      recordingsBucketName: placeholder,
      recordingsBucketArn: placeholder,
      webhooks: WEBHOOK_PLACEHOLDERS,
      payments: PAYMENT_PLACEHOLDERS,
      stores: STORE_PLACEHOLDERS,
      mail: MAIL_PLACEHOLDERS,
      accounts: ACCOUNTS_PLACEHOLDERS,
      chat: CHAT_PLACEHOLDERS,
      secondFactor: SECOND_FACTOR_PLACEHOLDERS,
      realtime: REALTIME_PLACEHOLDERS,
    }),
  );
};

/**
 * Init-time check of a function's environment: throws, naming them, when settings its row needs
 * are missing, so a mis-deployed function fails at its first cold start, not on some request path.
 * In a Lambda bundle the names are the row's settingsOf, computed when it was built
 * (`process.env.LAMBDA_BUNDLE_SETTINGS`, infra/bundling.ts `bundleDefineOf`): esbuild folds the
 * test, so a bundle carries neither this module's model of the stack's environments nor every
 * domain's access module, and builds no environment at init (issue 41).
 */
export const assertSettings = (row: DeployedRow, env: Record<string, string | undefined>): void => {
  const names =
    process.env.LAMBDA_BUNDLE_SETTINGS === undefined
      ? settingsOf(row)
      : process.env.LAMBDA_BUNDLE_SETTINGS.split(',').filter(Boolean);
  const missing = names.filter((name) => !env[name]);
  if (missing.length > 0) {
    throw new Error(
      `Function for ${functionKey(row)} is missing settings its row needs: ${missing.join(', ')}`,
    );
  }
};
