import { Match, type Template } from 'aws-cdk-lib/assertions';
import type { CfnTable } from 'aws-cdk-lib/aws-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { routes } from '../../functions/routes.ts';
import { eventPublisherRow } from '../../functions/events/worker.ts';
import { rebuildRow, workers } from '../../functions/workers.ts';
import { paymentWorkers } from '../../functions/payments/workers.ts';
import { webhookWorkers } from '../../functions/webhooks/workers.ts';
import { mailWorkers } from '../../functions/mail/workers.ts';
import { accountWorkers } from '../../functions/accounts/workers.ts';
import { realtimeWorkers } from '../../functions/realtime/workers.ts';
import type { ApiStack } from '../../infra/stack.ts';
import { TABLE } from '../../shared/db/table.ts';
import { type RouteRow, routeKey } from '../../shared/routing/route.ts';
import { dynamoActionsOf, functionOf } from '../../shared/platform/access.ts';
import { functionKey } from '../../shared/routing/function-row.ts';
import { cleanUp, synthStack } from './synth.ts';

afterAll(cleanUp);

type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string };
type Statement = { Action: string | string[]; Resource: unknown; Effect: string };

/** Every function the stack made from a row (route or worker: both carry ROUTE_KEY), by logical id. */
const rowFunctions = (template: Template): Record<string, Resource> =>
  Object.fromEntries(
    Object.entries(template.findResources('AWS::Lambda::Function') as Record<string, Resource>).filter(
      ([, fn]) => fn.Properties.Environment?.Variables?.ROUTE_KEY !== undefined,
    ),
  );

/** The functions no route invokes: the workers and the event publisher (infra/events.ts). */
const workerKeys = new Set(
  [
    ...workers,
    eventPublisherRow,
    ...webhookWorkers,
    ...mailWorkers,
    ...paymentWorkers,
    ...accountWorkers,
    ...realtimeWorkers,
  ].map(functionKey),
);

/** The API functions (those the stack made from route rows, not the workers), by logical id. */
const apiFunctions = (template: Template): Record<string, Resource> =>
  Object.fromEntries(
    Object.entries(rowFunctions(template)).filter(
      ([, fn]) => !workerKeys.has(fn.Properties.Environment.Variables.ROUTE_KEY),
    ),
  );

const routeKeyOf = (fn: Resource): string => fn.Properties.Environment.Variables.ROUTE_KEY;

/** Every statement that can apply to a function: its role's inline policies plus attached policies. */
const statementsOf = (template: Template, fn: Resource): Statement[] => {
  const roleId = fn.Properties.Role['Fn::GetAtt'][0] as string;
  const role = template.toJSON().Resources[roleId] as Resource;
  const inline = (role.Properties.Policies ?? []).flatMap((p: any) => p.PolicyDocument.Statement);
  const attached = Object.values(template.findResources('AWS::IAM::Policy') as Record<string, Resource>)
    .filter((p) => JSON.stringify(p.Properties.Roles).includes(roleId))
    .flatMap((p) => p.Properties.PolicyDocument.Statement);
  return [...inline, ...attached];
};

const actionsOf = (s: Statement): string[] => (Array.isArray(s.Action) ? s.Action : [s.Action]);

const tableId = (stack: ApiStack): string => stack.getLogicalId(stack.table.node.defaultChild as CfnTable);

const onTable = (stack: ApiStack, statements: Statement[]): Statement[] =>
  statements.filter((s) => JSON.stringify(s.Resource).includes(tableId(stack)));

describe('the stack built from the real route table', () => {
  const { template, stack } = synthStack(routes);

  it('has exactly one function per route row, each tagged with its route key', () => {
    const fns = apiFunctions(template);
    expect(Object.keys(fns)).toHaveLength(routes.length);
    expect(Object.values(fns).map(routeKeyOf).sort()).toEqual(routes.map(routeKey).sort());
    // No other nodejs22.x function sneaks in (CDK-internal helpers would not carry ROUTE_KEY).
    const node22 = Object.values(template.findResources('AWS::Lambda::Function')).filter(
      (fn: any) => fn.Properties.Runtime === 'nodejs22.x',
    );
    // The workers (functions/workers.ts) are the only others (test/infra/projector.test.ts), with
    // the event publisher (test/events/infra.test.ts), the playback key pair resource's function
    // (test/infra/secrets.test.ts) and the signing public key resource's (below).
    // And the webhook fan-out and sender (infra/webhooks.ts), the mail feedback worker
    // (infra/mail.ts), the payment workers (infra/payments.ts) and, in dev, the run-time cleanup
    // resource's (infra/runtime-cleanup.ts).
    expect(node22).toHaveLength(
      routes.length +
        workers.length +
        4 +
        webhookWorkers.length +
        mailWorkers.length +
        paymentWorkers.length +
        accountWorkers.length +
        realtimeWorkers.length,
    );
    for (const description of [
      'Imports IVS playback key pairs',
      "Reads the access-token signing key's public half",
      'On stack deletion: removes the IVS channels',
    ])
      expect(
        node22.filter((fn: any) => String(fn.Properties.Description).startsWith(description)),
        description,
      ).toHaveLength(1);
    expect(Object.keys(rowFunctions(template))).toHaveLength(
      routes.length +
        workers.length +
        1 +
        webhookWorkers.length +
        mailWorkers.length +
        paymentWorkers.length +
        accountWorkers.length +
        realtimeWorkers.length,
    );
  });

  it('routes every route key to the integration of its own function', () => {
    const json = template.toJSON().Resources as Record<string, Resource>;
    const apiRoutes = Object.values(json).filter((r) => r.Type === 'AWS::ApiGatewayV2::Route');
    expect(apiRoutes.map((r) => r.Properties.RouteKey).sort()).toEqual(routes.map(routeKey).sort());
    for (const route of apiRoutes) {
      const integrationId = route.Properties.Target['Fn::Join'][1][1].Ref as string;
      const fnId = json[integrationId]!.Properties.IntegrationUri['Fn::GetAtt'][0] as string;
      expect(routeKeyOf(json[fnId]!)).toBe(route.Properties.RouteKey);
      expect(json[integrationId]!.Properties.PayloadFormatVersion).toBe('2.0');
    }
  });

  it('gives every function the shared Lambda defaults (256 MB unless its row sizes it, with a reason)', () => {
    const byKey = new Map(routes.map((row) => [routeKey(row), row]));
    for (const fn of Object.values(apiFunctions(template))) {
      const row = byKey.get(routeKeyOf(fn))!;
      expect(fn.Properties, routeKey(row)).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        MemorySize: row.memory?.mb ?? 256,
        Timeout: 10,
        TracingConfig: { Mode: 'Active' },
        LoggingConfig: { LogFormat: 'JSON' },
      });
      // No `--enable-source-maps`: on Node 22 it reads and indexes the bundle's map at every init
      // (~10 ms of CPU, issue 41); a logged stack is mapped when it is logged (shared/observability/stack.ts).
      expect(fn.Properties.Environment.Variables.NODE_OPTIONS).toBeUndefined();
      expect(fn.Properties.LoggingConfig.LogGroup).toBeDefined();
    }
  });

  it('defines the table from shared/db/table.ts: keys, GSIs, TTL, on-demand, encrypted', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    const table = Object.values(template.findResources('AWS::DynamoDB::Table'))[0] as Resource;
    expect(table.Properties.KeySchema).toEqual([
      { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
      { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
    ]);
    expect(table.Properties.TimeToLiveSpecification).toEqual({
      AttributeName: 'expires_at_epoch',
      Enabled: true,
    });
    expect(table.Properties.BillingMode).toBe('PAY_PER_REQUEST');
    expect(table.Properties.SSESpecification).toEqual({ SSEEnabled: true });
    const gsis = table.Properties.GlobalSecondaryIndexes.map((gsi: any) => ({
      name: gsi.IndexName,
      partitionKey: gsi.KeySchema[0].AttributeName,
      sortKey: gsi.KeySchema[1].AttributeName,
      projection: gsi.Projection.ProjectionType,
    }));
    expect(gsis).toEqual(TABLE.indexes.map((index) => ({ ...index, projection: 'ALL' })));
  });

  it('gives every token-verifying function the deploy-time public JWK and none of them kms:GetPublicKey', () => {
    const fns = Object.values(rowFunctions(template));
    const verifying = fns.filter(
      (fn) => fn.Properties.Environment.Variables.SIGNING_PUBLIC_JWK !== undefined,
    );
    const rows = [...routes, ...workers, ...realtimeWorkers].filter((row) =>
      functionOf(row).needs?.includes('token-verifier'),
    );
    expect(verifying.map(routeKeyOf).sort()).toEqual(rows.map(functionKey).sort());
    expect(rows.length).toBeGreaterThan(50);
    for (const fn of verifying)
      expect(fn.Properties.Environment.Variables.SIGNING_PUBLIC_JWK['Fn::GetAtt']?.[1], routeKeyOf(fn)).toBe(
        'Jwk',
      );
    for (const fn of fns)
      expect(statementsOf(template, fn).flatMap(actionsOf), routeKeyOf(fn)).not.toContain('kms:GetPublicKey');
  });

  it('grants no wildcard action, and Scan only to the operator rebuild, on the table or its indexes', () => {
    const [rebuild] = Object.values(rowFunctions(template)).filter(
      (fn) => routeKeyOf(fn) === functionKey(rebuildRow),
    );
    const rebuildRole = rebuild!.Properties.Role['Fn::GetAtt'][0] as string;
    expect(onTable(stack, statementsOf(template, rebuild!)).flatMap(actionsOf)).toContain('dynamodb:Scan');
    const policies = [
      ...Object.entries(template.findResources('AWS::IAM::Role'))
        .filter(([id]) => id !== rebuildRole)
        .flatMap(([, r]: [string, any]) =>
          (r.Properties.Policies ?? []).flatMap((p: any) => p.PolicyDocument.Statement),
        ),
      ...Object.values(template.findResources('AWS::IAM::Policy')).flatMap(
        (p: any) => p.Properties.PolicyDocument.Statement,
      ),
    ] as Statement[];
    const tableStatements = onTable(stack, policies);
    expect(tableStatements.length).toBeGreaterThan(0);
    for (const statement of tableStatements) {
      for (const action of actionsOf(statement)) {
        expect(action).not.toContain('*');
        expect(action).not.toBe('dynamodb:Scan');
      }
    }
  });

  it('grants each function exactly the DynamoDB actions and indexes its row declares', () => {
    const byKey = new Map(routes.map((row) => [routeKey(row), row]));
    for (const fn of Object.values(apiFunctions(template))) {
      const row = byKey.get(routeKeyOf(fn))!;
      const statements = onTable(stack, statementsOf(template, fn));
      const onIndex = (s: Statement) => JSON.stringify(s.Resource).includes('/index/');
      const tableActions = [...new Set(statements.filter((s) => !onIndex(s)).flatMap(actionsOf))].sort();
      const indexes = statements
        .filter(onIndex)
        .flatMap((s) => [...JSON.stringify(s.Resource).matchAll(/\/index\/(\w+)/g)].map((m) => m[1]))
        .sort();
      expect(statements.filter(onIndex).flatMap(actionsOf), routeKey(row)).toEqual(
        indexes.length > 0 ? ['dynamodb:Query'] : [],
      );
      expect(tableActions, routeKey(row)).toEqual(dynamoActionsOf(row));
      expect(indexes, routeKey(row)).toEqual([...(row.dynamo?.indexes ?? [])].sort());
      expect(fn.Properties.Environment.Variables.TABLE_NAME !== undefined, routeKey(row)).toBe(
        tableActions.length + indexes.length > 0,
      );
    }
  });

  it('sends every alarm to the SNS topic: API 5xx rate, p99 latency, Lambda errors and throttles, DynamoDB', () => {
    const alarms = template.findResources('AWS::CloudWatch::Alarm') as Record<string, Resource>;
    const ids = Object.keys(alarms);
    for (const name of [
      'Api5xxRate',
      'ApiLatencyP99',
      'LambdaErrors1',
      'LambdaThrottles1',
      'DynamoDbThrottles',
    ]) {
      expect(
        ids.some((id) => id.includes(name)),
        name,
      ).toBe(true);
    }
    const topics = Object.keys(template.findResources('AWS::SNS::Topic'));
    expect(topics).toHaveLength(1);
    for (const alarm of Object.values(alarms)) {
      expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topics[0] }]);
      expect(alarm.Properties.OKActions).toEqual([{ Ref: topics[0] }]);
    }
    template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
  });

  it('watches every function in exactly one Lambda errors alarm and one throttles alarm', () => {
    const alarms = Object.entries(
      template.findResources('AWS::CloudWatch::Alarm') as Record<string, Resource>,
    );
    const functionIds = Object.keys(rowFunctions(template));
    for (const kind of ['LambdaErrors', 'LambdaThrottles']) {
      const watched = alarms
        .filter(([id]) => id.includes(kind))
        .flatMap(([, alarm]) =>
          (alarm.Properties.Metrics as any[])
            .filter((m) => m.MetricStat)
            .map((m) => m.MetricStat.Metric.Dimensions[0].Value.Ref as string),
        );
      expect(watched.sort(), kind).toEqual([...functionIds].sort());
      for (const [, alarm] of alarms.filter(([id]) => id.includes(kind))) {
        expect(alarm.Properties.Metrics.length).toBeLessThanOrEqual(11); // 10 metrics + the sum
      }
    }
  });

  it('outputs the API URL and the table name', () => {
    const outputs = template.toJSON().Outputs as Record<string, unknown>;
    expect(Object.keys(outputs)).toEqual(expect.arrayContaining(['ApiUrl', 'TableName']));
  });

  it('configures CORS on the HTTP API', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      ProtocolType: 'HTTP',
      CorsConfiguration: Match.objectLike({
        AllowOrigins: ['*'],
        AllowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
        AllowHeaders: ['authorization', 'content-type'],
        ExposeHeaders: ['x-request-id', 'retry-after', 'ratelimit', 'ratelimit-policy'],
        // The same preflight cache time the local gateway answers with.
        MaxAge: 600,
      }),
    });
  });
});

describe('grants that depend on the row', () => {
  const row = (overrides: Partial<RouteRow>): RouteRow => ({
    method: 'GET',
    path: '/x',
    handler: 'x/get-x',
    auth: 'none',
    summary: 'test row',
    tag: 'Test',
    ...overrides,
  });
  const rows = [
    row({ path: '/public', handler: 'x/get-public' }),
    row({
      path: '/optional',
      handler: 'x/get-optional',
      auth: 'optional',
      dynamo: { actions: ['GetItem', 'Query'], indexes: ['GSI1'] },
    }),
    row({
      method: 'POST',
      path: '/signer',
      handler: 'x/create-signer',
      dynamo: { actions: ['GetItem', 'PutItem'], indexes: TABLE.indexes.map((index) => index.name) },
      needs: ['token-signer'],
    }),
  ];
  const { template, stack } = synthStack(rows, { googleClientId: 'abc.apps.googleusercontent.com' });
  const fnFor = (key: string) => Object.values(apiFunctions(template)).find((fn) => routeKeyOf(fn) === key)!;
  const kmsActions = (key: string) =>
    statementsOf(template, fnFor(key))
      .flatMap(actionsOf)
      .filter((a) => a.startsWith('kms:'))
      .sort();

  it('creates an ECC_NIST_P256 sign/verify key', () => {
    template.hasResourceProperties('AWS::KMS::Key', { KeySpec: 'ECC_NIST_P256', KeyUsage: 'SIGN_VERIFY' });
  });

  it('lets the token signer sign (only), with the key id and Google client id', () => {
    expect(kmsActions('POST /signer')).toEqual(['kms:Sign']);
    const env = fnFor('POST /signer').Properties.Environment.Variables;
    expect(env.SIGNING_KEY_ID).toBeDefined();
    expect(env.GOOGLE_CLIENT_ID).toBe('abc.apps.googleusercontent.com');
  });

  /** The `Custom::SigningPublicKey` resource (infra/signing-public-key.ts), by logical id. */
  const [jwkResourceId, jwkResource] = Object.entries(template.findResources('Custom::SigningPublicKey'))[0]!;

  it('gives token-verifying routes the public JWK computed at deploy, and no KMS permission or key id', () => {
    expect(kmsActions('GET /optional')).toEqual([]);
    const env = fnFor('GET /optional').Properties.Environment.Variables;
    expect(env.SIGNING_PUBLIC_JWK).toEqual({ 'Fn::GetAtt': [jwkResourceId, 'Jwk'] });
    expect(env.SIGNING_KEY_ID).toBeUndefined();
    expect(env.JWKS_URI).toBeUndefined();
    expect(env.GOOGLE_CLIENT_ID).toBeUndefined();
    // The signer signs; it verifies nothing, so it has no JWK.
    expect(fnFor('POST /signer').Properties.Environment.Variables.SIGNING_PUBLIC_JWK).toBeUndefined();
  });

  it('reads the public key once at deploy: one Custom::SigningPublicKey on the key, its function may only GetPublicKey it', () => {
    expect(Object.keys(template.findResources('Custom::SigningPublicKey'))).toHaveLength(1);
    const keyId = Object.keys(template.findResources('AWS::KMS::Key')).find(
      (id) => template.toJSON().Resources[id].Properties.KeySpec === 'ECC_NIST_P256',
    )!;
    expect(jwkResource.Properties.KeyId).toEqual({ Ref: keyId });
    const fnId = jwkResource.Properties.ServiceToken['Fn::GetAtt'][0] as string;
    const fn = template.toJSON().Resources[fnId] as Resource;
    expect(fn.Properties.Runtime).toBe('nodejs22.x');
    const statements = statementsOf(template, fn);
    expect(statements).toHaveLength(2);
    expect(statements).toContainEqual({
      Action: 'kms:GetPublicKey',
      Effect: 'Allow',
      Resource: { 'Fn::GetAtt': [keyId, 'Arn'] },
    });
    const logs = statements.find((s) => s !== statements.find((t) => t.Action === 'kms:GetPublicKey'))!;
    expect(logs.Action).toEqual(['logs:CreateLogStream', 'logs:PutLogEvents']);
    expect(JSON.stringify(logs.Resource)).toContain('SigningPublicKeyLogs');
  });

  it('gives a public route without table access no KMS and no DynamoDB permission', () => {
    const statements = statementsOf(template, fnFor('GET /public'));
    expect(
      statements.flatMap(actionsOf).filter((a) => !a.startsWith('logs:') && !a.startsWith('xray:')),
    ).toEqual([]);
    expect(onTable(stack, statements)).toEqual([]);
  });

  it('scopes DynamoDB statements to the table and its named indexes, no ARN wildcards', () => {
    const resources = onTable(stack, statementsOf(template, fnFor('POST /signer'))).flatMap((s) =>
      Array.isArray(s.Resource) ? s.Resource : [s.Resource],
    );
    const text = JSON.stringify(resources);
    for (const index of TABLE.indexes) expect(text).toContain(`/index/${index.name}`);
    expect(text).not.toContain('/index/*');
  });

  it('lets analytics-sink rows put records on the delivery stream, and only them', () => {
    const { template: t } = synthStack([
      row({ method: 'POST', path: '/events', needs: ['analytics-sink'] }),
      row({ method: 'GET', path: '/other', handler: 'x/get-other' }),
    ]);
    // Among the API functions (the projector, a worker, also writes the catalogue's titles).
    const withStream = Object.values(apiFunctions(t)).filter(
      (f: any) => f.Properties.Environment?.Variables?.ANALYTICS_STREAM_NAME,
    );
    expect(withStream.map(routeKeyOf)).toEqual(['POST /events']);
    expect(JSON.stringify(t.findResources('AWS::IAM::Role'))).toContain('firehose:PutRecordBatch');
  });

  it('lets media-signer rows read the media key secret (only it), and makes the CDN require its key group on recordings but thumbnails', () => {
    const { template: t } = synthStack([
      row({ path: '/media', handler: 'x/get-media', needs: ['media-signer'] }),
      row({ path: '/other', handler: 'x/get-other' }),
    ]);
    const fns = Object.values(t.findResources('AWS::Lambda::Function') as Record<string, Resource>);
    const signers = fns.filter((f) => f.Properties.Environment?.Variables?.MEDIA_KEY_SECRET_ARN);
    expect(signers.map(routeKeyOf)).toEqual(['GET /media']);
    expect(signers[0]!.Properties.Environment.Variables.MEDIA_KEY_PAIR_ID).toBeDefined();
    const reads = statementsOf(t, signers[0]!).filter((st) =>
      actionsOf(st).includes('secretsmanager:GetSecretValue'),
    );
    expect(reads).toHaveLength(1);
    expect(JSON.stringify(reads[0]!.Resource)).toContain('MediaSecret');
    const other = fns.find((f) => routeKeyOf(f) === 'GET /other')!;
    expect(JSON.stringify(statementsOf(t, other))).not.toContain('secretsmanager');
    // The media CDN: a key group of the generation's public key; signed behaviours on recordings.
    t.resourceCountIs('AWS::CloudFront::KeyGroup', 1);
    const [distribution] = Object.values(
      t.findResources('AWS::CloudFront::Distribution') as Record<string, Resource>,
    );
    const config = distribution!.Properties.DistributionConfig;
    const byPattern = Object.fromEntries(
      config.CacheBehaviors.map((b: any) => [b.PathPattern, (b.TrustedKeyGroups ?? []).length > 0]),
    );
    expect(byPattern).toEqual({
      'ivs/*/media/thumbnails/*': false,
      'ivs/*/media/latest_thumbnail/*': false,
      'ivs/*.m3u8': true,
      'ivs/*': true,
    });
    expect(config.DefaultCacheBehavior.TrustedKeyGroups).toHaveLength(1);

    // Recorded playlists come from the playlist function (issue 34): a function URL only this
    // distribution may call (IAM auth, origin access control), keyed and forwarded by the
    // signature it carries to the children; the function reads the bucket and names no CDN_URL.
    const playlists = config.CacheBehaviors.find((b: any) => b.PathPattern === 'ivs/*.m3u8');
    const origin = config.Origins.find((o: any) => o.Id === playlists.TargetOriginId);
    expect(origin.OriginAccessControlId).toBeDefined();
    expect(JSON.stringify(origin.DomainName)).toContain('FunctionUrl');
    t.hasResourceProperties('AWS::Lambda::Url', { AuthType: 'AWS_IAM' });
    t.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: Match.objectLike({ OriginAccessControlOriginType: 'lambda' }),
    });
    const policy = Object.entries(
      t.findResources('AWS::CloudFront::CachePolicy') as Record<string, Resource>,
    ).find(([id]) => JSON.stringify(playlists.CachePolicyId).includes(id))![1];
    expect(
      policy.Properties.CachePolicyConfig.ParametersInCacheKeyAndForwardedToOrigin.QueryStringsConfig,
    ).toEqual({
      QueryStringBehavior: 'whitelist',
      QueryStrings: ['Policy', 'Signature', 'Key-Pair-Id', 'Hash-Algorithm', 'Expires'],
    });
    const playlistFn = fns.find(
      (f) => f.Properties.Environment?.Variables?.ROUTE_KEY === '$cdn/recorded-playlists',
    )!;
    expect(playlistFn.Properties.Environment.Variables.CDN_URL).toBeUndefined();
    expect(playlistFn.Properties.Environment.Variables.RECORDINGS_BUCKET).toBeDefined();
    expect(statementsOf(t, playlistFn).flatMap(actionsOf)).toContain('s3:GetObject');
  });

  it('refuses a route key that appears twice', () => {
    expect(() => synthStack([row({}), row({ handler: 'x/other-x' })])).toThrow(/GET \/x appears twice/);
  });
});

describe('throttling', () => {
  const { template } = synthStack([
    {
      method: 'POST',
      path: '/onboarding/account/create',
      handler: 'identity/create-account',
      auth: 'none',
      dynamo: { actions: ['PutItem'] },
      throttle: { rate: 2, burst: 5 },
      summary: 'throttled',
      tag: 'Test',
    },
    {
      method: 'GET',
      path: '/free',
      handler: 'x/get-free',
      auth: 'none',
      summary: 'not throttled',
      tag: 'Test',
    },
  ]);

  it('sets the stage default and overrides only the rows that ask for it', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 },
      RouteSettings: {
        'POST /onboarding/account/create': { ThrottlingRateLimit: 2, ThrottlingBurstLimit: 5 },
      },
      AccessLogSettings: Match.objectLike({ DestinationArn: Match.anyValue() }),
    });
    const stage = Object.values(template.findResources('AWS::ApiGatewayV2::Stage'))[0] as any;
    expect(Object.keys(stage.Properties.RouteSettings)).toEqual(['POST /onboarding/account/create']);
  });
});

describe('throttling of the real route table', () => {
  it('caps every row that asks for it, by its route key', () => {
    const { template } = synthStack(routes);
    const stage = Object.values(template.findResources('AWS::ApiGatewayV2::Stage'))[0] as any;
    const expected = Object.fromEntries(
      routes
        .filter((r) => r.throttle)
        .map((r) => [
          routeKey(r),
          { ThrottlingRateLimit: r.throttle!.rate, ThrottlingBurstLimit: r.throttle!.burst },
        ]),
    );
    expect(Object.keys(expected).length).toBeGreaterThanOrEqual(8);
    expect(stage.Properties.RouteSettings).toEqual(expected);
  });
});

describe('stage settings', () => {
  const tableOf = (template: Template) =>
    Object.values(template.findResources('AWS::DynamoDB::Table'))[0] as Resource;
  const retentions = (template: Template) =>
    Object.values(template.findResources('AWS::Logs::LogGroup')).map(
      (g: any) => g.Properties.RetentionInDays,
    );

  it('prod retains data, keeps point-in-time recovery and deletion protection, logs 90 days', () => {
    const { template } = synthStack(routes.slice(0, 1), { stage: 'prod' });
    const table = tableOf(template);
    expect(table.DeletionPolicy).toBe('Retain');
    expect(table.Properties.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    expect(table.Properties.DeletionProtectionEnabled).toBe(true);
    expect(retentions(template).every((days) => days === 90)).toBe(true);
    template.hasResource('AWS::KMS::Key', { DeletionPolicy: 'Retain' });
  });

  it('dev destroys on removal, without point-in-time recovery, logs 7 days', () => {
    const { template } = synthStack(routes.slice(0, 1), { stage: 'dev' });
    const table = tableOf(template);
    expect(table.DeletionPolicy).toBe('Delete');
    expect(table.Properties.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: false });
    expect(retentions(template).every((days) => days === 7)).toBe(true);
  });
});

// The resource budget (every stack, parent and nested, under 450): test/infra/resource-budget.test.ts.
