import { type AccountsDeployment, EXPORT_KEY_PREFIX } from '../shared/accounts/access.ts';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Duration, type RemovalPolicy, Validations } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import {
  type Deployment,
  type DeployedRow,
  environmentOf,
  functionOf,
  policyOf,
  type Statement,
} from '../shared/platform/access.ts';
import { functionKey } from '../shared/routing/function-row.ts';
import type { PaymentDeployment } from '../shared/payments/access.ts';
import type { StoreDeployment } from '../shared/stores/access.ts';
import type { WebhookDeployment } from '../shared/webhooks/access.ts';
import type { ChatDeployment } from '../shared/chat/access.ts';
import type { RealtimeDeployment } from '../shared/realtime/access.ts';
import type { MailDeployment } from '../shared/mail/access.ts';
import type { SecondFactorDeployment } from '../shared/identity/second-factor-access.ts';
import { nodejsBundling } from './bundling.ts';

/** The repository root: bundling runs from here with the committed lockfile. */
export const PROJECT_ROOT = join(import.meta.dirname, '..');

/** `creators/list-creators` → `<root>/functions/creators/list-creators.ts`. */
export const handlerEntry = (handler: string): string => join(PROJECT_ROOT, 'functions', `${handler}.ts`);

/** The stack's shared resources a row's grants refer to. */
export interface ApiResources {
  table: dynamodb.ITable;
  indexNames: readonly string[];
  /** Asymmetric ECC_NIST_P256 key that signs access tokens (ES256). */
  signingKey: kms.IKey;
  /** Its public JWK (compact JSON), computed at deploy (infra/signing-public-key.ts). */
  signingPublicJwk: string;
  googleClientId: string;
  /**
   * Playback tokens (infra/playback-keys.ts): the secret holding the current IVS playback private
   * key (functions read it at init; only its ARN is in the environment) and the web origin tokens
   * allow.
   */
  playback: { keySecretArn: string; allowOrigin: string };
  /**
   * Signed media URLs (infra/playback-keys.ts, shared/playback/media-signing.ts): the secret
   * holding the media CDN's current private key and its CloudFront public key's id.
   */
  media: { keySecretArn: string; keyPairId: string };
  /**
   * The bucket IVS records into (infra/live-video.ts), for rows that need `recordings-reader`;
   * `uniqueId`: its CfnBucket's `Names.uniqueId`, how cdk-nag names its ARN in a nested stack.
   */
  recordings: { bucketName: string; bucketArn: string; uniqueId: string };
  /** The analytics delivery stream (infra/analytics.ts), for rows that need `analytics-sink`. */
  analyticsStream?: { name: string; arn: string };
  /** The account's IVS resources and the recording configuration (infra/live-video.ts). */
  ivs: { arnPrefix: string; recordingConfigurationArn: string };
  /** Webhooks' HMAC key and queues (infra/webhooks.ts), for rows that need `webhook-*`. */
  webhooks?: WebhookDeployment;
  /** The Stripe secret and payment settings (infra/payments.ts), for rows that need `stripe`. */
  payments?: PaymentDeployment;
  stores?: StoreDeployment;
  /** The sending identity and configuration set (infra/mail.ts), for rows that need `mailer`. */
  mail?: MailDeployment;
  /** The exports bucket, the pseudonym key and the account jobs queue (infra/accounts.ts). */
  accounts?: AccountsDeployment;
  /** The exports bucket's CfnBucket `Names.uniqueId` (how cdk-nag names its ARN in a nested stack). */
  exports?: { uniqueId: string };
  /** IVS Chat rooms, the review handler and logging configuration (infra/chat.ts), for rows with `ivsChat`. */
  chat?: ChatDeployment;
  /** The TOTP secrets' key and the creators' second-factor setting (infra/stack.ts). */
  secondFactor?: SecondFactorDeployment;
  /** The Event API (infra/realtime.ts), for rows that need `realtime-*`. */
  realtime?: RealtimeDeployment;
}

/** What every API function shares, decided once by the stack. */
export interface ApiFunctionDefaults {
  resources: ApiResources;
  /** The one log group all API functions write to (retention set by the stage). */
  logGroup: logs.ILogGroup;
  /** Environment every function receives (`commonEnvironment` of shared/platform/access.ts). */
  environment: Record<string, string>;
  /** How functions are made from their handler files (`bundledCode` when deployed). */
  code: FunctionCode;
}

export interface ApiFunctionProps extends ApiFunctionDefaults {
  /** A route's or a worker's row: the function's handler, access, memory and timeout. */
  row: DeployedRow;
}

/**
 * A role whose permissions live in ONE inline policy on the role itself, so a function costs one
 * IAM resource instead of two (role + `DefaultPolicy`): see the resource budget in
 * docs/operations.md. Grants made through the usual CDK API (`grantX(fn)`, `fn.addToRolePolicy`)
 * land in that inline policy, so callers need not know.
 */
export class InlinePolicyRole extends iam.Role {
  private readonly document: iam.PolicyDocument;

  constructor(scope: Construct, id: string) {
    const document = new iam.PolicyDocument();
    super(scope, id, {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      inlinePolicies: { access: document },
    });
    this.document = document;
  }

  override addToPrincipalPolicy(statement: iam.PolicyStatement): iam.AddToPrincipalPolicyResult {
    this.document.addStatements(statement);
    return { statementAdded: true, policyDependable: this };
  }
}

/**
 * How the stack makes the construct `Function` of `scope` from the function's settings and its
 * handler file (`entry`, and the row it serves, if any). The stack is given one: `bundledCode`
 * (infra/app.ts); assertion tests give theirs (test/infra/synth.ts), so no construct here
 * branches on being tested.
 */
export type FunctionCode = ((
  scope: Construct,
  common: Omit<lambda.FunctionProps, 'code' | 'handler'>,
  options: { entry: string; row?: DeployedRow },
) => lambda.Function) & {
  /** Checked for every route before anything is built (a handler file that must exist). */
  checkRow?: (row: DeployedRow) => void;
};

/** Every function bundled by the local esbuild (nodejsBundling) from its handler file, which must exist. */
export const bundledCode: FunctionCode = Object.assign(
  (
    scope: Construct,
    common: Omit<lambda.FunctionProps, 'code' | 'handler'>,
    { entry, row }: { entry: string; row?: DeployedRow },
  ) => {
    if (row) assertHandlerFile(row);
    return new NodejsFunction(scope, 'Function', {
      ...common,
      entry,
      handler: 'handler',
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
      bundling: nodejsBundling(row),
    });
  },
  { checkRow: (row: DeployedRow) => assertHandlerFile(row) },
);

/** What every function of the stack runs on, API, worker or custom resource alike. */
export const LAMBDA_DEFAULTS = {
  runtime: lambda.Runtime.NODEJS_22_X,
  architecture: lambda.Architecture.ARM_64,
  /** MB, when a row names no `memory`. */
  memorySize: 256,
} as const;

/** Adds `statements` (shared/platform/access.ts, infra/handlers/access.ts) to `role`'s policy. */
export const grantStatements = (role: iam.IRole, statements: readonly Statement[]): void => {
  for (const statement of statements)
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: [...statement.actions], resources: [...statement.resources] }),
    );
};

/**
 * The function of a custom resource (infra/handlers/*), with the stack's function defaults
 * (LAMBDA_DEFAULTS, the stack's FunctionCode): in `scope`, its role (`Role`, one inline policy), its own
 * log group (`Logs`, the stage's retention) and the function (`Function`), which may write
 * there; `statements`, its grants (infra/handlers/access.ts), follow. The caller adds the grants
 * it can only name later (`grantStatements`).
 */
export const customResourceFunction = (
  scope: Construct,
  props: {
    /** `infra/handlers/<name>.ts`, from the repository root. */
    handler: string;
    description: string;
    timeout: Duration;
    statements?: readonly Statement[];
    logRetention: logs.RetentionDays;
    removalPolicy: RemovalPolicy;
    code: FunctionCode;
  },
): { role: InlinePolicyRole; logGroup: logs.LogGroup; fn: lambda.Function } => {
  const role = new InlinePolicyRole(scope, 'Role');
  const logGroup = new logs.LogGroup(scope, 'Logs', {
    retention: props.logRetention,
    removalPolicy: props.removalPolicy,
  });
  const fn = props.code(
    scope,
    { ...LAMBDA_DEFAULTS, timeout: props.timeout, role, logGroup, description: props.description },
    { entry: join(PROJECT_ROOT, props.handler) },
  );
  grantStatements(role, [
    { actions: ['logs:CreateLogStream', 'logs:PutLogEvents'], resources: [logGroup.logGroupArn] },
    ...(props.statements ?? []),
  ]);
  Validations.of(fn).acknowledge({
    id: 'AwsSolutions-L1',
    reason: 'nodejs22.x is the runtime the project targets and tests, as for every function of the stack.',
  });
  return { role, logGroup, fn };
};

/** `creators/list-creators` → `CreatorsListCreators` (construct ids). */
export const constructIdOf = (handler: string): string =>
  handler
    .split(/[/-]/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');

/** Throws, naming the row and the file, when the row's handler file does not exist (bundling needs it). */
export const assertHandlerFile = (row: DeployedRow): void => {
  const entry = handlerEntry(row.handler);
  if (!existsSync(entry)) {
    throw new Error(
      `Function ${functionKey(row)}: handler file functions/${row.handler}.ts does not exist (${entry}). ` +
        'Add the handler or remove the row from the route table.',
    );
  }
};

/**
 * The one place every Lambda default lives: one function per route-table row, bundled by the
 * local esbuild (never Docker) as a minified ESM bundle with source maps, nodejs22.x on arm64,
 * X-Ray tracing, JSON logs into the shared log group, and its own least-privilege role.
 */
export class ApiFunction extends Construct {
  readonly fn: lambda.Function;
  readonly row: DeployedRow;

  constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    super(scope, id);
    const { row } = props;
    this.row = row;
    const entry = handlerEntry(row.handler);

    const role = new InlinePolicyRole(this, 'Role');
    // Logs go to the shared group (Lambda names each stream after the function).
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        resources: [props.logGroup.logGroupArn],
      }),
    );

    // Grants and environment come from the row through the same derivation the local platform
    // runs handlers with (shared/platform/access.ts).
    const { table, signingKey, analyticsStream } = props.resources;
    if (functionOf(row).needs?.includes('analytics-sink') && !analyticsStream) {
      throw new Error(
        `Function ${functionKey(row)} needs 'analytics-sink' but the stack has no Analytics construct wired (infra/analytics.ts).`,
      );
    }
    const deployment: Deployment = {
      common: props.environment,
      tableName: table.tableName,
      tableArn: table.tableArn,
      signingKeyId: signingKey.keyId,
      signingKeyArn: signingKey.keyArn,
      signingPublicJwk: props.resources.signingPublicJwk,
      googleClientId: props.resources.googleClientId,
      analyticsStreamName: analyticsStream?.name ?? '',
      analyticsStreamArn: analyticsStream?.arn ?? '',
      ivsArnPrefix: props.resources.ivs.arnPrefix,
      ivsRecordingConfigurationArn: props.resources.ivs.recordingConfigurationArn,
      playbackKeySecretArn: props.resources.playback.keySecretArn,
      playbackAllowOrigin: props.resources.playback.allowOrigin,
      mediaKeySecretArn: props.resources.media.keySecretArn,
      mediaKeyPairId: props.resources.media.keyPairId,
      recordingsBucketName: props.resources.recordings.bucketName,
      recordingsBucketArn: props.resources.recordings.bucketArn,
      webhooks: props.resources.webhooks,
      payments: props.resources.payments,
      stores: props.resources.stores,
      mail: props.resources.mail,
      accounts: props.resources.accounts,
      chat: props.resources.chat,
      secondFactor: props.resources.secondFactor,
      realtime: props.resources.realtime,
    };
    if (row.ivsChat?.length)
      Validations.of(role).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:ivschat:<AWS::Region>:<AWS::AccountId>:room/*]',
        reason:
          "IVS Chat rooms are created at run time by the API (one per channel), so their ARNs are not known to the stack: the grant names the account's rooms in this region, for only the IVS Chat actions the route row lists.",
      });
    if (row.ivs?.length) {
      for (const kind of ['channel', 'stream-key'])
        Validations.of(role).acknowledge({
          id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:ivs:<AWS::Region>:<AWS::AccountId>:${kind}/*]`,
          reason:
            "IVS channels and stream keys are created at run time by the API (one per creator), so their ARNs are not known to the stack: the grant names the account's channels or stream keys in this region, for only the IVS actions the route row lists.",
        });
    }
    if (row.needs?.includes('recordings-reader')) {
      Validations.of(role).acknowledge({
        id: `AwsSolutions-IAM5[Resource::<referenceto${props.resources.recordings.uniqueId}Arn>/*]`,
        reason:
          "IVS names each recording's objects at run time (a prefix per broadcast): the grant is s3:GetObject on the recordings bucket's objects only, to read a recording's metadata.",
      });
    }
    if (
      (row.needs?.includes('exports-writer') || row.needs?.includes('exports-reader')) &&
      props.resources.exports
    )
      Validations.of(role).acknowledge({
        id: `AwsSolutions-IAM5[Resource::<referenceto${props.resources.exports.uniqueId}Arn>/${EXPORT_KEY_PREFIX}*]`,
        reason:
          "Export documents get random names at run time, never an account id (docs/accounts.md \"Export\"), so no narrower key is known in advance: the grant covers only the exports bucket's export objects (the EXPORT_KEY_PREFIX prefix), for only the object actions the row's capability lists; each request reaches one account's document through the export item the caller owns.",
      });
    grantStatements(role, policyOf(row, deployment));

    const common = {
      ...LAMBDA_DEFAULTS,
      memorySize: row.memory?.mb ?? LAMBDA_DEFAULTS.memorySize,
      timeout: Duration.seconds(row.timeout?.seconds ?? 10),
      tracing: lambda.Tracing.ACTIVE,
      role,
      logGroup: props.logGroup,
      loggingFormat: lambda.LoggingFormat.JSON,
      applicationLogLevelV2: lambda.ApplicationLogLevel.INFO,
      systemLogLevelV2: lambda.SystemLogLevel.WARN,
      description: `${functionKey(row)}: ${row.summary}`.slice(0, 256),
      environment: environmentOf(row, deployment),
    } satisfies Partial<lambda.FunctionProps>;

    this.fn = props.code(this, common, { entry, row });

    // cdk-nag (AwsSolutions) findings this construct accepts, each with its reason.
    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'Only xray:PutTraceSegments/PutTelemetryRecords (added by Tracing.ACTIVE), ivs:ListStreams and (stream readers) dynamodb:ListStreams use Resource *: xray and dynamodb:ListStreams have no resource-level permissions, ivs:ListStreams lists every channel. Table, key, log and IVS channel statements name their ARNs (or ARN patterns).',
    });
    Validations.of(this.fn).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'nodejs22.x is the runtime the project targets and tests (Node 20/22 compatible code); moving to a newer runtime is a deliberate, tested change.',
    });
  }
}
