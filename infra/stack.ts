import { CfnOutput, Duration, Names, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as kms from 'aws-cdk-lib/aws-kms';
import { LiveVideo } from './live-video.ts';
import { Analytics } from './analytics.ts';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { TABLE } from '../shared/db/table.ts';
import { commonEnvironment } from '../shared/platform/access.ts';
import { CORS } from '../shared/http/cors.ts';
import { type RouteRow, routeKey } from '../shared/routing/route.ts';
import type { ApiFunction, ApiResources, FunctionCode } from './api-function.ts';
import { MediaPlaylists } from './media-playlists.ts';
import { Monitoring } from './monitoring.ts';
import { MediaCdn } from './media-cdn.ts';
import { PlaybackKeys } from './playback-keys.ts';
import { SigningPublicKey } from './signing-public-key.ts';
import { Projector } from './projector.ts';
import { PlatformEvents } from './events.ts';
import { Payments } from './payments.ts';
import { Webhooks } from './webhooks.ts';
import { Chat, ChatLogs } from './chat.ts';
import { Realtime } from './realtime.ts';
import { Mail } from './mail.ts';
import { Accounts, ExportsBucket } from './accounts.ts';
import { RuntimeCleanup } from './runtime-cleanup.ts';
import { RouteStack, routesByDomain } from './route-stack.ts';
import { resolveSettings } from './settings.ts';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { STAGES, type StageName } from './stage.ts';

/** API Gateway's preflight answers, from the one CORS policy the handlers also answer with. */
const corsPreflight: apigw.CorsPreflightOptions = {
  allowOrigins: [...CORS.allowOrigins],
  allowMethods: CORS.allowMethods.map((method) => apigw.CorsHttpMethod[method]),
  allowHeaders: [...CORS.allowHeaders],
  exposeHeaders: [...CORS.exposeHeaders],
  maxAge: Duration.seconds(CORS.preflightMaxAgeSeconds),
};

export interface ApiStackProps extends StackProps {
  stage: StageName;
  /** The route table (functions/routes.ts); tests pass synthetic tables too. */
  routes: readonly RouteRow[];
  /** How functions are made from their handler files: `bundledCode` (infra/app.ts); tests pass theirs. */
  code: FunctionCode;
  // The deploy settings (CDK context of the same names; checked in infra/settings.ts): prod
  // requires each and synth fails naming every missing one; dev fills in placeholders.
  /** OAuth client id the Google sign-in function checks tokens against. */
  googleClientId?: string;
  /** E-mail subscribed to the alarm topic (optional in dev). */
  alarmEmail?: string;
  /** IVS playback key generations, oldest first, comma-separated (infra/playback-keys.ts). */
  playbackKeys?: string;
  /** Public web origin of creator pages (`handle_url`), e.g. https://creators.example.com. */
  siteUrl?: string;
  /** From address of the platform's mail; its domain is the verified SES identity. */
  mailFrom?: string;
  /** `<account>/<region>` this stage deploys to, and where dev stacks are (infra/settings.ts). */
  target?: string;
  /** `required`: creators must use a second factor in the studio (infra/settings.ts). */
  creatorSecondFactor?: string;
  devTargets?: string;
}

/**
 * The whole service: HTTP API with one Lambda per route-table row, the single table, the token
 * signing key, the shared function log group, alarms and a dashboard. Environment-agnostic, so
 * `cdk synth` needs no credentials. The functions, their routes and their alarms live in one
 * nested stack per domain (infra/route-stack.ts) so that no stack nears CloudFormation's 500
 * resources (docs/operations.md, resource budget); `cdk deploy` of this stack deploys them all.
 */
export class ApiStack extends Stack {
  readonly functions: readonly ApiFunction[];
  /** One nested stack per domain (handler folder), holding that domain's routes. */
  readonly routeStacks: readonly RouteStack[];
  /** The functions no route invokes: projector, recompute, rebuild (infra/projector.ts). */
  readonly workers: Projector;
  /** Domain events: the EventBridge bus (`events.bus`, for consumers' rules) and its publisher (infra/events.ts). */
  readonly events: PlatformEvents;
  readonly table: dynamodb.Table;
  readonly api: apigw.HttpApi;
  /** Removes the run-time IVS channels before the recording configuration when the stack is deleted. */
  readonly cleanup?: RuntimeCleanup;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    // The route table is checked before anything is built: a bundled synthesis bundles every
    // worker first (20-30 s of esbuild), so a duplicate row or a missing handler file named at the
    // end was found only after all that.
    const seen = new Set<string>();
    for (const row of props.routes) {
      const key = routeKey(row);
      if (seen.has(key)) throw new Error(`Route ${key} appears twice in the route table`);
      seen.add(key);
      props.code.checkRow?.(row);
    }
    const settings = STAGES[props.stage];
    const deploy = resolveSettings(props.stage, props);

    const table = new dynamodb.Table(this, 'Table', {
      partitionKey: { name: TABLE.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: TABLE.sortKey, type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      timeToLiveAttribute: TABLE.ttlAttribute,
      stream: dynamodb.StreamViewType[TABLE.streamViewType],
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: settings.pointInTimeRecovery },
      deletionProtection: settings.deletionProtection,
      removalPolicy: settings.removalPolicy,
    });
    for (const index of TABLE.indexes) {
      table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: dynamodb.AttributeType.STRING },
        sortKey: { name: index.sortKey, type: dynamodb.AttributeType.STRING },
        projectionType: dynamodb.ProjectionType.ALL,
      });
    }
    this.table = table;
    if (!settings.pointInTimeRecovery) {
      Validations.of(table).acknowledge({
        id: 'AwsSolutions-DDB3',
        reason: 'Point-in-time recovery is on in prod; the dev table holds regenerable demo data only.',
      });
    }

    const signingKey = new kms.Key(this, 'TokenSigningKey', {
      description: 'Signs access tokens (ES256); public key read by verifying functions',
      keySpec: kms.KeySpec.ECC_NIST_P256,
      keyUsage: kms.KeyUsage.SIGN_VERIFY,
      removalPolicy: settings.removalPolicy,
    });
    // Its public JWK, read once at deploy: verifying functions get it in their environment.
    const signingPublicKey = new SigningPublicKey(this, 'SigningPublicKey', {
      signingKey,
      removalPolicy: settings.removalPolicy,
      logRetention: settings.logRetention,
      code: props.code,
    });

    // TOTP secrets (docs/accounts.md "Second factor"): encrypted under the account's encryption
    // context; enrolment may only Encrypt, the code checks only Decrypt (shared/identity/second-factor-access.ts).
    const secondFactorKey = new kms.Key(this, 'SecondFactorKey', {
      description: 'Encrypts the TOTP secrets of second factors',
      enableKeyRotation: true,
      removalPolicy: settings.removalPolicy,
    });
    // Emailed one-time codes (verification, reset, address change) are stored as MACs under this
    // HMAC key, so a table reader cannot test guesses offline; only the functions that make or
    // check codes may GenerateMac with it (`one-time-codes`, shared/identity/second-factor-access.ts).
    const oneTimeCodeKey = new kms.Key(this, 'OneTimeCodeKey', {
      description: 'Emailed one-time codes are stored as MACs under this HMAC key (GenerateMac)',
      keySpec: kms.KeySpec.HMAC_256,
      keyUsage: kms.KeyUsage.GENERATE_VERIFY_MAC,
      removalPolicy: settings.removalPolicy,
    });

    // One log group for every API function: Lambda names each stream after its function.
    const functionLogs = new logs.LogGroup(this, 'FunctionLogs', {
      retention: settings.logRetention,
      removalPolicy: settings.removalPolicy,
    });
    const accessLogs = new logs.LogGroup(this, 'ApiAccessLogs', {
      retention: settings.logRetention,
      removalPolicy: settings.removalPolicy,
    });

    // ── Analytics ────────────────────────────────────────────────────────────────────────────
    const analytics = new Analytics(this, 'Analytics', {
      removalPolicy: settings.removalPolicy,
      retentionDays: props.stage === 'prod' ? 730 : 30,
    });
    new CfnOutput(this, 'AnalyticsBucket', { value: analytics.bucket.bucketName });
    new CfnOutput(this, 'AnalyticsStream', { value: analytics.deliveryStreamName });
    new CfnOutput(this, 'AnalyticsDatabase', {
      value: analytics.databaseName,
      description: 'Glue database of the analytics events table',
    });
    new CfnOutput(this, 'AnalyticsWorkGroup', {
      value: analytics.workgroupName,
      description: 'Athena workgroup for the analytics queries (named queries included)',
    });

    // ── Live video (IVS) ─────────────────────────────────────────────────────────────────────────
    const liveVideo = new LiveVideo(this, 'LiveVideo', { removalPolicy: settings.removalPolicy });
    new CfnOutput(this, 'RecordingsBucket', { value: liveVideo.recordings.bucketName });
    // Where every chat room logs (infra/chat.ts); the run-time cleanup deletes rooms before it.
    const chatLogs = new ChatLogs(this, 'ChatLogs', { removalPolicy: settings.removalPolicy });
    // Dev: run-time channels (and stream keys) and chat rooms removed before the recording and
    // chat logging configurations on deletion. Prod retains them with the table.
    this.cleanup =
      settings.removalPolicy !== RemovalPolicy.DESTROY
        ? undefined
        : new RuntimeCleanup(this, 'RuntimeCleanup', {
            recordingConfiguration: liveVideo.recordingConfiguration,
            ivsArnPrefix: liveVideo.arnPrefix,
            chatLoggingConfiguration: chatLogs.loggingConfiguration,
            chatArnPrefix: chatLogs.arnPrefix,
            stage: props.stage,
            removalPolicy: settings.removalPolicy,
            logRetention: settings.logRetention,
            code: props.code,
          });
    const playbackKeys = new PlaybackKeys(this, 'PlaybackKeys', {
      generations: deploy.playbackKeys.split(','),
      ivsArnPrefix: liveVideo.arnPrefix,
      removalPolicy: settings.removalPolicy,
      logRetention: settings.logRetention,
      code: props.code,
    });
    const resources: ApiResources = {
      table,
      indexNames: TABLE.indexes.map((index) => index.name),
      signingKey,
      signingPublicJwk: signingPublicKey.jwk,
      googleClientId: deploy.googleClientId,
      playback: { keySecretArn: playbackKeys.current.secretArn, allowOrigin: deploy.siteUrl },
      media: {
        keySecretArn: playbackKeys.currentMedia.secret.secretArn,
        keyPairId: playbackKeys.currentMedia.keyPairId,
      },
      recordings: {
        bucketName: liveVideo.recordings.bucketName,
        bucketArn: liveVideo.recordings.bucketArn,
        uniqueId: Names.uniqueId(liveVideo.recordings.node.defaultChild as Construct),
      },
      analyticsStream: { name: analytics.deliveryStreamName, arn: analytics.streamArn },
      ivs: {
        arnPrefix: liveVideo.arnPrefix,
        recordingConfigurationArn: liveVideo.recordingConfiguration.attrArn,
      },
      secondFactor: {
        keyId: secondFactorKey.keyId,
        keyArn: secondFactorKey.keyArn,
        codeKeyId: oneTimeCodeKey.keyId,
        codeKeyArn: oneTimeCodeKey.keyArn,
        creators: deploy.creatorSecondFactor ?? 'prompt',
      },
    };
    const environmentWith = (cdnUrl: string) =>
      commonEnvironment({
        stage: props.stage,
        siteUrl: deploy.siteUrl,
        cdnUrl,
      });
    const api = new apigw.HttpApi(this, 'HttpApi', {
      description: `Creator streaming API (${props.stage})`,
      corsPreflight,
      createDefaultStage: false,
    });
    this.api = api;

    const stage = new apigw.HttpStage(this, 'DefaultStage', {
      httpApi: api,
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: settings.throttle.rate, burstLimit: settings.throttle.burst },
      accessLogSettings: {
        destination: new apigw.LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            routeKey: '$context.routeKey',
            status: '$context.status',
            latencyMs: '$context.responseLatency',
            integrationLatencyMs: '$context.integrationLatency',
            integrationError: '$context.integrationErrorMessage',
            ip: '$context.identity.sourceIp',
            userAgent: '$context.identity.userAgent',
            time: '$context.requestTimeEpoch',
          }),
        ),
      },
    });

    const monitoring = new Monitoring(this, 'Monitoring', {
      api,
      stageName: stage.stageName,
      table,
      indexNames: resources.indexNames,
      alarmEmail: deploy.alarmEmail,
    });
    // The media CDN's origin for recorded playlists (infra/media-playlists.ts): a stack of its own
    // that names no `{cdn_url}`, since the distribution names its function URL.
    const playlists = new MediaPlaylists(this, 'MediaPlaylists', {
      resources,
      environment: environmentWith(''),
      logGroup: functionLogs,
      code: props.code,
      monitoring,
    });
    const { distribution: cdn } = new MediaCdn(this, 'MediaCdn', {
      recordings: liveVideo.recordings,
      removalPolicy: settings.removalPolicy,
      logRetentionDays: settings.logRetention,
      keyGroup: playbackKeys.keyGroup,
      playlists: playlists.url,
      allowOrigin: deploy.siteUrl,
    });
    new CfnOutput(this, 'MediaCdnDomain', {
      value: cdn.distributionDomainName,
      description: '{cdn_url}: recorded broadcasts and thumbnails',
    });
    const environment = environmentWith(`https://${cdn.distributionDomainName}`);
    // What every construct that makes functions takes (the resources object grows below, as each is made).
    const functionProps = { resources, environment, monitoring, logGroup: functionLogs, code: props.code };

    // Webhooks (infra/webhooks.ts) before the route stacks: the subscription routes use its key and queue.
    const webhooks = new Webhooks(this, 'Webhooks', {
      ...functionProps,
      removalPolicy: settings.removalPolicy,
    });
    resources.webhooks = webhooks.deployment;
    // Payments (infra/payments.ts) before the route stacks too: the Stripe routes read its secret.
    const payments = new Payments(this, 'Payments', {
      ...functionProps,
      removalPolicy: settings.removalPolicy,
    });
    resources.payments = payments.deployment;
    resources.stores = payments.stores;
    // Mail (infra/mail.ts) before the route stacks too: sign-up and the resend route send through it.
    const mail = new Mail(this, 'Mail', {
      ...functionProps,
      from: deploy.mailFrom,
    });
    resources.mail = mail.deployment;
    // Chat (infra/chat.ts) before the route stacks: POST /studio/channel makes rooms naming its handler.
    const chat = new Chat(this, 'Chat', {
      ...functionProps,
      loggingConfigurationArn: chatLogs.loggingConfiguration.attrArn,
    });
    resources.chat = chat.deployment;
    new CfnOutput(this, 'ChatReviewHandlerArn', {
      value: chat.review.fn.functionArn,
      description: 'For `npm run operator -- chat-room` (CHAT_REVIEW_HANDLER_ARN; docs/chat.md)',
    });
    new CfnOutput(this, 'ChatLoggingConfigurationArn', {
      value: chatLogs.loggingConfiguration.attrArn,
      description: 'For `npm run operator -- chat-room` (CHAT_LOGGING_CONFIGURATION_ARN; docs/chat.md)',
    });
    // Realtime (infra/realtime.ts) before the route stacks: GET .../live/realtime names its endpoint.
    const realtime = new Realtime(this, 'Realtime', {
      ...functionProps,
    });
    resources.realtime = realtime.deployment;
    // Accounts (infra/accounts.ts) after payments and chat (its worker cancels with Stripe and
    // deletes a creator's chat room), before the route stacks (the export and deletion routes use
    // its queue and bucket; analytics its key).
    const exports = new ExportsBucket(this, 'Exports', { removalPolicy: settings.removalPolicy });
    resources.exports = { uniqueId: Names.uniqueId(exports.bucket.node.defaultChild as Construct) };
    const accounts = new Accounts(this, 'Accounts', {
      exports: exports.bucket,
      ...functionProps,
      removalPolicy: settings.removalPolicy,
    });
    resources.accounts = accounts.deployment;

    this.routeStacks = [...routesByDomain(props.routes)].map(
      ([domain, rows]) =>
        new RouteStack(this, `${domain}Routes`, {
          domain,
          rows,
          api,
          ...functionProps,
        }),
    );
    this.functions = this.routeStacks.flatMap((routeStack) => routeStack.functions);

    // The projector on the table stream, the hourly recompute and the rebuild (nested stack).
    this.workers = new Projector(this, 'Workers', {
      table,
      ...functionProps,
    });
    new CfnOutput(this, 'RebuildFunctionName', {
      value: this.workers.rebuild.fn.functionName,
      description: 'Operator function: recomputes every view from the source items (aws lambda invoke)',
    });
    // Domain events: the bus and its publisher, the table stream's second reader (nested stack).
    this.events = new PlatformEvents(this, 'Events', {
      table,
      ...functionProps,
    });
    webhooks.subscribe(this.events.bus);
    new CfnOutput(this, 'EventBusName', {
      value: this.events.bus.eventBusName,
      description: 'The EventBridge bus of platform events (docs/events.md): add rules on it',
    });
    new CfnOutput(this, 'ProjectorFailureQueueUrl', {
      value: this.workers.failures.queueUrl,
      description: 'Pointers to stream batches the projector gave up on (docs/operations.md)',
    });

    const throttled = props.routes.filter((row) => row.throttle);
    if (throttled.length > 0) {
      const cfnStage = stage.node.defaultChild as apigw.CfnStage;
      cfnStage.routeSettings = Object.fromEntries(
        throttled.map((row) => [
          routeKey(row),
          { ThrottlingRateLimit: row.throttle!.rate, ThrottlingBurstLimit: row.throttle!.burst },
        ]),
      );
      // Route settings name route keys: the routes must exist before the stage refers to them
      // (CDK turns this into a dependency of the stage on the route stacks that hold them).
      for (const routeStack of this.routeStacks) {
        for (const route of routeStack.throttledRoutes) stage.node.addDependency(route);
      }
    }

    new CfnOutput(this, 'ApiUrl', { value: stage.url, description: 'Base URL of the HTTP API' });
    new CfnOutput(this, 'TableName', { value: table.tableName });
    new CfnOutput(this, 'FunctionLogGroup', { value: functionLogs.logGroupName });
    const alarmTopic = new SnsAction(monitoring.topic);
    analytics.deliveryFailureAlarm.addAlarmAction(alarmTopic);
    analytics.deliveryFailureAlarm.addOkAction(alarmTopic);
    new CfnOutput(this, 'AlarmTopicArn', { value: monitoring.topic.topicArn });
    new CfnOutput(this, 'SigningKeyId', { value: signingKey.keyId });
  }
}
