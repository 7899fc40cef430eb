import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Duration, Validations } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { LogLevel, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import type * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { type RouteRow, routeKey } from '../shared/http/route.ts';
import { LAMBDA_BUNDLING } from './bundling.ts';

/** The repository root: bundling runs from here with the committed lockfile. */
export const PROJECT_ROOT = join(import.meta.dirname, '..');

/** `creators/list-creators` → `<root>/functions/creators/list-creators.ts`. */
export const handlerEntry = (handler: string): string => join(PROJECT_ROOT, 'functions', `${handler}.ts`);

/** DynamoDB actions per access level of a route row. No wildcard: each action is named. */
export const TABLE_ACTIONS = {
  read: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'],
  write: [
    'dynamodb:GetItem',
    'dynamodb:BatchGetItem',
    'dynamodb:Query',
    'dynamodb:PutItem',
    'dynamodb:UpdateItem',
    'dynamodb:DeleteItem',
    'dynamodb:BatchWriteItem',
    'dynamodb:ConditionCheckItem',
  ],
} as const;

/** Actions on the GSIs (only Query applies to an index; Scan is never granted). */
export const INDEX_ACTIONS = ['dynamodb:Query'] as const;

/** KMS actions: signers sign and publish; verifiers only read the public key. */
export const SIGNER_ACTIONS = ['kms:Sign', 'kms:GetPublicKey'] as const;
export const VERIFIER_ACTIONS = ['kms:GetPublicKey'] as const;

/** The stack's shared resources a row's grants refer to. */
export interface ApiResources {
  table: dynamodb.ITable;
  indexNames: readonly string[];
  /** Asymmetric ECC_NIST_P256 key that signs access tokens (ES256). */
  signingKey: kms.IKey;
  googleClientId: string;
  /**
   * Grants PutRecord/PutRecordBatch on the analytics delivery stream and sets its env;
   * undefined until the Analytics construct (infra/analytics.ts) is wired into the stack.
   */
  grantAnalyticsSink?: (fn: lambda.Function) => void;
}

/** What every API function shares, decided once by the stack. */
export interface ApiFunctionDefaults {
  resources: ApiResources;
  /** The one log group all API functions write to (retention set by the stage). */
  logGroup: logs.ILogGroup;
  /** Environment every function receives (TABLE_NAME, STAGE, ...). */
  environment: Record<string, string>;
  /** false: a tiny inline placeholder instead of an esbuild bundle (assertion tests only). */
  bundle: boolean;
}

export interface ApiFunctionProps extends ApiFunctionDefaults {
  row: RouteRow;
  /** @default 256 */
  memorySize?: number;
  /** @default 10 s */
  timeout?: Duration;
}

/**
 * A role whose permissions live in ONE inline policy on the role itself, so a function costs one
 * IAM resource instead of two (role + `DefaultPolicy`): see the resource budget in
 * docs/operations.md. Grants made through the usual CDK API (`grantX(fn)`, `fn.addToRolePolicy`)
 * land in that inline policy, so callers need not know.
 */
class InlinePolicyRole extends iam.Role {
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

/** `creators/list-creators` → `CreatorsListCreators` (construct ids). */
export const constructIdOf = (handler: string): string =>
  handler
    .split(/[/-]/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');

/**
 * The one place every Lambda default lives: one function per route-table row, bundled by the
 * local esbuild (never Docker) as a minified ESM bundle with source maps, nodejs22.x on arm64,
 * X-Ray tracing, JSON logs into the shared log group, and its own least-privilege role.
 */
export class ApiFunction extends Construct {
  readonly fn: lambda.Function;
  readonly row: RouteRow;

  constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    super(scope, id);
    const { row } = props;
    this.row = row;
    const entry = handlerEntry(row.handler);
    if (props.bundle && !existsSync(entry)) {
      throw new Error(
        `Route ${routeKey(row)}: handler file functions/${row.handler}.ts does not exist (${entry}). ` +
          'Add the handler or remove the row from the route table.',
      );
    }

    const role = new InlinePolicyRole(this, 'Role');
    // Logs go to the shared group (Lambda names each stream after the function).
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        resources: [props.logGroup.logGroupArn],
      }),
    );

    const environment: Record<string, string> = {};
    const { table, signingKey } = props.resources;
    if (row.table !== 'none') {
      role.addToPrincipalPolicy(
        new iam.PolicyStatement({ actions: [...TABLE_ACTIONS[row.table]], resources: [table.tableArn] }),
      );
      role.addToPrincipalPolicy(
        new iam.PolicyStatement({
          actions: [...INDEX_ACTIONS],
          resources: props.resources.indexNames.map((name) => `${table.tableArn}/index/${name}`),
        }),
      );
      environment.TABLE_NAME = table.tableName;
    }
    const signs = row.needs?.includes('token-signer') ?? false;
    const verifies = row.auth !== 'none' || (row.needs?.includes('token-verifier') ?? false);
    if (signs || verifies) {
      role.addToPrincipalPolicy(
        new iam.PolicyStatement({
          actions: [...(signs ? SIGNER_ACTIONS : VERIFIER_ACTIONS)],
          resources: [signingKey.keyArn],
        }),
      );
      environment.SIGNING_KEY_ID = signingKey.keyId;
    }
    if (signs) environment.GOOGLE_CLIENT_ID = props.resources.googleClientId;

    const common = {
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memorySize ?? 256,
      timeout: props.timeout ?? Duration.seconds(10),
      tracing: lambda.Tracing.ACTIVE,
      role,
      logGroup: props.logGroup,
      loggingFormat: lambda.LoggingFormat.JSON,
      applicationLogLevelV2: lambda.ApplicationLogLevel.INFO,
      systemLogLevelV2: lambda.SystemLogLevel.WARN,
      description: `${routeKey(row)}: ${row.summary}`.slice(0, 256),
      environment: {
        ...props.environment,
        ...environment,
        ROUTE_KEY: routeKey(row),
        NODE_OPTIONS: '--enable-source-maps',
      },
    } satisfies Partial<lambda.FunctionProps>;

    this.fn = props.bundle
      ? new NodejsFunction(this, 'Function', {
          ...common,
          entry,
          handler: 'handler',
          projectRoot: PROJECT_ROOT,
          depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
          bundling: {
            format: OutputFormat.ESM,
            mainFields: [...LAMBDA_BUNDLING.mainFields],
            banner: LAMBDA_BUNDLING.banner,
            minify: LAMBDA_BUNDLING.minify,
            sourceMap: LAMBDA_BUNDLING.sourcemap,
            sourcesContent: LAMBDA_BUNDLING.sourcesContent,
            target: LAMBDA_BUNDLING.target,
            // The pinned SDK the tests ran against, not whatever the runtime ships.
            bundleAwsSDK: true,
            forceDockerBundling: false,
            logLevel: LogLevel.ERROR,
          },
        })
      : new lambda.Function(this, 'Function', {
          ...common,
          handler: 'index.handler',
          code: lambda.Code.fromInline('exports.handler = async () => ({ statusCode: 501 });'),
        });

    // cdk-nag (AwsSolutions) findings this construct accepts, each with its reason.
    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'Only xray:PutTraceSegments/PutTelemetryRecords (added by Tracing.ACTIVE) use Resource *: X-Ray has no resource-level permissions. Table, key and log statements name their ARNs.',
    });
    Validations.of(this.fn).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'nodejs22.x is the runtime the project targets and tests (Node 20/22 compatible code); moving to a newer runtime is a deliberate, tested change.',
    });

    if (row.needs?.includes('analytics-sink')) {
      const grant = props.resources.grantAnalyticsSink;
      if (!grant) {
        throw new Error(
          `Route ${routeKey(row)} needs 'analytics-sink' but the stack has no Analytics construct wired (infra/analytics.ts).`,
        );
      }
      grant(this.fn);
    }
  }
}
