import { Template } from 'aws-cdk-lib/assertions';
import type { CfnTable } from 'aws-cdk-lib/aws-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { routes } from '../../functions/routes.ts';
import { audienceRow, ivsEventRow, projectorRow, rebuildRow, recomputeRow } from '../../functions/workers.ts';
import { ITERATOR_AGE_ALARM_MS, IVS_DETAIL_TYPES, STREAM_MAPPING } from '../../infra/projector.ts';
import type { WorkerRow } from '../../shared/routing/function-row.ts';
import { dynamoActionsOf } from '../../shared/platform/access.ts';
import { PROJECTED_ENTITIES } from '../../shared/projection/projector.ts';
import { cleanUp, synthStack, templatesOf } from './synth.ts';

afterAll(cleanUp);

type Json = Record<string, any>;
type Statement = { Action: string | string[]; Resource: unknown; Effect: string };

const { template, parent, stack } = synthStack(routes);
const resources = template.toJSON().Resources as Record<string, Json>;
const ofType = (type: string): Array<[string, Json]> =>
  Object.entries(resources).filter(([, r]) => r.Type === type);

/** The function made from `row` (its ROUTE_KEY names the row's trigger). */
const functionOf = (row: WorkerRow): [string, Json] => {
  const found = ofType('AWS::Lambda::Function').filter(
    ([, fn]) => fn.Properties.Environment?.Variables?.ROUTE_KEY === row.trigger,
  );
  expect(found, row.trigger).toHaveLength(1);
  return found[0]!;
};

const statementsOf = (fn: Json): Statement[] => {
  const roleId = fn.Properties.Role['Fn::GetAtt'][0] as string;
  const role = resources[roleId]!;
  const attached = ofType('AWS::IAM::Policy').filter(([, p]) =>
    JSON.stringify(p.Properties.Roles).includes(roleId),
  );
  expect(attached, 'one inline policy on the role, no attached policy').toEqual([]);
  return role.Properties.Policies.flatMap((p: Json) => p.PolicyDocument.Statement);
};
const actionsOf = (s: Statement): string[] => (Array.isArray(s.Action) ? s.Action : [s.Action]);
const resourcesOf = (s: Statement): unknown[] => (Array.isArray(s.Resource) ? s.Resource : [s.Resource]);

const tableId = stack.getLogicalId(stack.table.node.defaultChild as CfnTable);
const tableArn = { 'Fn::GetAtt': [tableId, 'Arn'] };
const streamArn = { 'Fn::GetAtt': [tableId, 'StreamArn'] };

const [projectorId, projectorFn] = functionOf(projectorRow);
const [recomputeId, recomputeFn] = functionOf(recomputeRow);
const [rebuildId, rebuildFn] = functionOf(rebuildRow);
const [audienceId, audienceFn] = functionOf(audienceRow);
const [ivsEventId] = functionOf(ivsEventRow);
/** The stream's two readers: the projector's mapping and the event publisher's (infra/events.ts). */
const mappings = ofType('AWS::Lambda::EventSourceMapping');
const mappingEntry = mappings.find(([, m]) => m.Properties.FunctionName?.Ref === projectorId);
const mapping = mappingEntry![1].Properties;
/** The on-failure queue, as the mapping names it. */
const queueId = mapping.DestinationConfig.OnFailure.Destination['Fn::GetAtt'][0] as string;

describe('the projector on the table stream', () => {
  it("is one of the stream's two event source mappings (the other: the event publisher's), to the projector function", () => {
    // (The third mapping, the webhook sender's on its SQS queue, is infra/webhooks.ts's.)
    expect(mappings.filter(([, m]) => m.Properties.StartingPosition !== undefined)).toHaveLength(2);
    expect(
      mappings.filter(([, m]) => JSON.stringify(m.Properties.EventSourceArn) === JSON.stringify(streamArn)),
    ).toHaveLength(2);
    expect(mapping.EventSourceArn).toEqual(streamArn);
    expect(mapping.FunctionName).toEqual({ Ref: projectorId });
  });

  it('reads batches of 100 from the trim horizon, retries 5 times with bisection, for at most an hour', () => {
    expect(mapping).toMatchObject({
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: 100,
      MaximumBatchingWindowInSeconds: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 5,
      MaximumRecordAgeInSeconds: 3600,
      ParallelizationFactor: 1,
    });
    // The figures docs/operations.md quotes come from the same constant.
    expect(STREAM_MAPPING).toMatchObject({ batchSize: 100, retryAttempts: 5, maxRecordAgeHours: 1 });
  });

  it('gives up on a batch into an encrypted, TLS-only queue that keeps it 14 days', () => {
    expect(mapping.DestinationConfig).toEqual({
      OnFailure: { Destination: { 'Fn::GetAtt': [queueId, 'Arn'] } },
    });
    expect(resources[queueId]).toMatchObject({
      Type: 'AWS::SQS::Queue',
      Properties: { SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 24 * 3600 },
    });
    const [, policy] = ofType('AWS::SQS::QueuePolicy').find(([, p]) =>
      JSON.stringify(p.Properties.Queues).includes(queueId),
    )!;
    expect(policy.Properties.PolicyDocument.Statement).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          Effect: 'Deny',
          Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        }),
      ]),
    );
  });

  it('is invoked only by source items: entity (S) in PROJECTED_ENTITIES, in the new image or the old', () => {
    const patterns = (mapping.FilterCriteria.Filters as Json[]).map((f) => JSON.parse(f.Pattern));
    expect(patterns).toEqual([
      { dynamodb: { NewImage: { entity: { S: [...PROJECTED_ENTITIES] } } } },
      { dynamodb: { OldImage: { entity: { S: [...PROJECTED_ENTITIES] } } } },
    ]);
    for (const entity of ['creator', 'show', 'episode', 'account']) {
      expect(patterns[0].dynamodb.NewImage.entity.S).toContain(entity);
    }
  });

  it("grants the projector its row's DynamoDB actions, the stream reads on the stream and send on its queue", () => {
    const statements = statementsOf(projectorFn);
    const onTable = statements.filter((s) => JSON.stringify(s.Resource) === JSON.stringify(tableArn));
    expect(onTable.flatMap(actionsOf).sort()).toEqual(dynamoActionsOf(projectorRow));
    const onIndexes = statements.filter((s) => JSON.stringify(s.Resource).includes('/index/'));
    expect(onIndexes.flatMap(actionsOf)).toEqual(
      (projectorRow as WorkerRow).dynamo?.indexes?.length ? ['dynamodb:Query'] : [],
    );
    const onStream = statements.filter((s) => JSON.stringify(s.Resource).includes('StreamArn'));
    expect(onStream).toEqual([
      expect.objectContaining({
        Action: ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'],
        Resource: streamArn,
      }),
    ]);
    const sqsActions = statements.filter((s) => actionsOf(s).some((a) => a.startsWith('sqs:')));
    expect(sqsActions).toEqual([
      expect.objectContaining({
        Action: expect.arrayContaining(['sqs:SendMessage']),
        Resource: { 'Fn::GetAtt': [queueId, 'Arn'] },
      }),
    ]);
    // Only X-Ray and dynamodb:ListStreams (no resource-level permissions) have Resource '*'.
    const wildcards = statements.filter((s) => resourcesOf(s).some((r) => JSON.stringify(r).includes('*')));
    expect(wildcards.flatMap(actionsOf).sort()).toEqual([
      'dynamodb:ListStreams',
      'xray:PutTelemetryRecords',
      'xray:PutTraceSegments',
    ]);
    // Nothing else: logs, table (and indexes), stream, queue, X-Ray, the analytics stream (the
    // title dimension and the payment facts) and the pseudonym key (a payment fact names its
    // account by its keyed hash, shared/analytics/pseudonym.ts), that secret only.
    const known = new Set([...onTable, ...onIndexes, ...onStream, ...sqsActions, ...wildcards]);
    const rest = statements.filter((s) => !known.has(s));
    expect(rest.flatMap(actionsOf).sort()).toEqual([
      'firehose:PutRecordBatch',
      'logs:CreateLogStream',
      'logs:PutLogEvents',
      'secretsmanager:GetSecretValue',
    ]);
    const secret = rest.find((s) => actionsOf(s).includes('secretsmanager:GetSecretValue'))!;
    expect(resourcesOf(secret)).toHaveLength(1);
    expect(JSON.stringify(resourcesOf(secret))).toMatch(/PseudonymKey/);
  });

  it('sizes and times the functions: projector 1 min, recompute 5 min, rebuild 15 min, memory from the rows', () => {
    expect(projectorFn.Properties).toMatchObject({ Timeout: 60, MemorySize: projectorRow.memory.mb });
    expect(recomputeFn.Properties).toMatchObject({ Timeout: 300, MemorySize: 256 });
    expect(rebuildFn.Properties).toMatchObject({ Timeout: 900, MemorySize: rebuildRow.memory.mb });
  });
});

const schedules = ofType('AWS::Scheduler::Schedule');
describe.each([
  { name: 'the hourly recompute', fnId: recomputeId, expression: 'rate(1 hour)', maxAge: 3600 },
  { name: 'the audience publisher', fnId: audienceId, expression: 'rate(1 minute)', maxAge: 60 },
])('$name', ({ fnId, expression, maxAge }) => {
  const found = schedules.filter(([, s]) => JSON.stringify(s.Properties.Target.Arn).includes(`"${fnId}"`));
  const [, schedule] = found[0]!;
  const target = schedule.Properties.Target;

  it('runs on its rate, targets its function, retries, and dead-letters what it cannot deliver', () => {
    expect(found).toHaveLength(1);
    expect(schedule.Properties).toMatchObject({
      ScheduleExpression: expression,
      State: 'ENABLED',
      FlexibleTimeWindow: { Mode: 'OFF' },
    });
    expect(target.Arn).toEqual({ 'Fn::GetAtt': [fnId, 'Arn'] });
    expect(target.RetryPolicy).toEqual({ MaximumRetryAttempts: 3, MaximumEventAgeInSeconds: maxAge });
    const dlqId = target.DeadLetterConfig.Arn['Fn::GetAtt'][0] as string;
    expect(resources[dlqId]).toMatchObject({
      Type: 'AWS::SQS::Queue',
      Properties: { SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 24 * 3600 },
    });
  });

  it('assumes a role that may invoke only that function and send only to its dead-letter queue', () => {
    const roleId = target.RoleArn['Fn::GetAtt'][0] as string;
    const role = resources[roleId]!;
    expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([
      expect.objectContaining({
        Principal: { Service: 'scheduler.amazonaws.com' },
        Action: 'sts:AssumeRole',
      }),
    ]);
    const statements = role.Properties.Policies.flatMap(
      (p: Json) => p.PolicyDocument.Statement,
    ) as Statement[];
    expect(statements).toEqual([
      expect.objectContaining({
        Action: 'lambda:InvokeFunction',
        Resource: { 'Fn::GetAtt': [fnId, 'Arn'] },
      }),
      expect.objectContaining({ Action: 'sqs:SendMessage', Resource: target.DeadLetterConfig.Arn }),
    ]);
    expect(
      ofType('AWS::IAM::Policy').filter(([, p]) => JSON.stringify(p.Properties.Roles).includes(roleId)),
    ).toEqual([]);
  });
});

describe('the operator and scheduled functions', () => {
  it('are five schedules in all (these two, the payments and app-store reconciles (infra/payments.ts) and the realtime ticks (infra/realtime.ts))', () => {
    expect(schedules).toHaveLength(5);
  });

  it("grants the recompute, the audience publisher and the rebuild exactly their rows' DynamoDB actions, nothing on the stream, SQS only on their on-failure queue", () => {
    for (const [row, fn] of [
      [recomputeRow, recomputeFn],
      [audienceRow, audienceFn],
      [rebuildRow, rebuildFn],
    ] as const) {
      const statements = statementsOf(fn);
      const onTable = statements.filter((s) => JSON.stringify(s.Resource) === JSON.stringify(tableArn));
      expect(onTable.flatMap(actionsOf).sort(), row.trigger).toEqual(dynamoActionsOf(row));
      expect(JSON.stringify(statements), row.trigger).not.toContain('StreamArn');
      // The scheduled ones send the events their invocations failed on to their own queue
      // (infra/async-failures.ts); the rebuild, invoked synchronously, sends nowhere.
      const onQueues = statements.filter((s) => JSON.stringify(s).includes('sqs:'));
      expect(
        onQueues.map((s) => JSON.stringify(s.Resource)),
        row.trigger,
      ).toEqual(row === rebuildRow ? [] : [expect.stringMatching(/AsyncFailuresQueue/)]);
    }
  });

  it('gives the rebuild no trigger: only its alarms and the dashboard name it', () => {
    const mentions = Object.entries(resources).filter(
      ([id, r]) => id !== rebuildId && JSON.stringify(r).includes(`"${rebuildId}"`),
    );
    // The Workers errors and throttles alarms, and the dashboard's Lambda graphs of those groups.
    expect(mentions.map(([, r]) => r.Type).sort()).toEqual([
      'AWS::CloudWatch::Alarm',
      'AWS::CloudWatch::Alarm',
      'AWS::CloudWatch::Dashboard',
    ]);
    expect(
      ofType('AWS::Lambda::Permission').filter(([, p]) => JSON.stringify(p).includes(rebuildId)),
    ).toEqual([]);
  });

  it("outputs the rebuild function's name (for `aws lambda invoke`) and the on-failure queue URL on the parent", () => {
    const outputs = parent.toJSON().Outputs as Json;
    expect(outputs.RebuildFunctionName.Value).toEqual({
      'Fn::GetAtt': [expect.stringMatching(/^Workers/), expect.stringMatching(/^Outputs\./)],
    });
    expect(template.toJSON().Outputs.RebuildFunctionName.Value).toEqual({ Ref: rebuildId });
    expect(template.toJSON().Outputs.ProjectorFailureQueueUrl.Value).toEqual({ Ref: queueId });
  });
});

describe('IVS events', () => {
  it('an EventBridge rule on aws.ivs sends the four IVS detail types to the IVS event function, retried for an hour, then dead-lettered', () => {
    // (The webhook fan-out's rule on the platform bus lives in infra/webhooks.ts's stack.)
    const rules = ofType('AWS::Events::Rule').filter(([, r]) =>
      JSON.stringify(r.Properties.EventPattern).includes('aws.ivs'),
    );
    expect(rules).toHaveLength(1);
    const rule = rules[0]![1].Properties;
    expect(rule.EventPattern).toEqual({ source: ['aws.ivs'], 'detail-type': [...IVS_DETAIL_TYPES] });
    expect(rule.Targets).toHaveLength(1);
    expect(rule.Targets[0]).toMatchObject({
      Arn: { 'Fn::GetAtt': [ivsEventId, 'Arn'] },
      RetryPolicy: { MaximumRetryAttempts: 8, MaximumEventAgeInSeconds: 3600 },
    });
    expect(rule.Targets[0].DeadLetterConfig.Arn['Fn::GetAtt'][0]).toMatch(/^IvsEventFailures/);
  });
});

describe('alarms of the workers', () => {
  const topicId = Object.keys(template.findResources('AWS::SNS::Topic'))[0]!;
  const alarm = (name: string): Json => {
    const found = ofType('AWS::CloudWatch::Alarm').filter(([id]) => id.startsWith(name));
    expect(found, name).toHaveLength(1);
    const [, a] = found[0]!;
    expect(a.Properties.AlarmActions, name).toEqual([{ Ref: topicId }]);
    expect(a.Properties.OKActions, name).toEqual([{ Ref: topicId }]);
    return a.Properties;
  };

  it('IteratorAge: maximum above 60 s for 5 minutes', () => {
    expect(alarm('ProjectorIteratorAge')).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'IteratorAge',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: projectorId } }],
      Statistic: 'Maximum',
      Period: 60,
      EvaluationPeriods: 5,
      Threshold: ITERATOR_AGE_ALARM_MS,
      ComparisonOperator: 'GreaterThanThreshold',
    });
    expect(ITERATOR_AGE_ALARM_MS).toBe(60_000);
  });

  it('on-failure queue: one visible message is enough', () => {
    expect(alarm('ProjectorFailedBatches')).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [queueId, 'QueueName'] } }],
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
  });

  it('projector errors (any), recompute errors (any in an hour) and undelivered recompute invocations', () => {
    expect(alarm('ProjectorErrors')).toMatchObject({
      MetricName: 'Errors',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: projectorId } }],
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    expect(alarm('RecomputeErrors')).toMatchObject({
      MetricName: 'Errors',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: recomputeId } }],
      Period: 3600,
      Threshold: 1,
    });
    expect(alarm('RecomputeUndelivered')).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Threshold: 1,
    });
    expect(alarm('AudienceErrors')).toMatchObject({
      MetricName: 'Errors',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: audienceId } }],
      Period: 300,
      Threshold: 1,
    });
    expect(alarm('AudienceUndelivered')).toMatchObject({ MetricName: 'ApproximateNumberOfMessagesVisible' });
  });

  it('IVS limit breaches (any) and refused viewer revocations (10 in 5 minutes), from the EMF metrics', () => {
    const emf = {
      Namespace: 'CreatorStreaming',
      Dimensions: [{ Name: 'service', Value: 'creator-streaming' }],
    };
    expect(alarm('IvsLimitBreaches')).toMatchObject({
      ...emf,
      MetricName: 'ivs_limit_breaches',
      Threshold: 1,
    });
    expect(alarm('ViewerRevocationsFailed')).toMatchObject({
      ...emf,
      MetricName: 'viewer_revocations_failed',
      Period: 300,
      Threshold: 10,
    });
  });

  it('watches the five functions for errors and throttles like every other function', () => {
    for (const kind of ['WorkersLambdaErrors1', 'WorkersLambdaThrottles1']) {
      const metrics = alarm(kind).Metrics as Json[];
      const watched = metrics
        .filter((m) => m.MetricStat)
        .map((m) => m.MetricStat.Metric.Dimensions[0].Value.Ref);
      expect(watched.sort(), kind).toEqual(
        [projectorId, recomputeId, audienceId, ivsEventId, rebuildId].sort(),
      );
    }
  });

  it('puts a projector row on the dashboard', () => {
    const [, dashboard] = ofType('AWS::CloudWatch::Dashboard')[0]!;
    const body = JSON.stringify(dashboard.Properties.DashboardBody);
    for (const title of ['Projector iterator age (ms)', 'Projector failures', 'Recompute (hourly)']) {
      expect(body).toContain(title);
    }
  });
});

describe('where the workers live', () => {
  it('in their own nested stack, not in the parent or a route stack', () => {
    const workers = templatesOf(stack).find(({ path }) => path === 'Test/Workers');
    expect(workers).toBeDefined();
    const ids = Object.keys(workers!.template.toJSON().Resources);
    for (const id of [projectorId, recomputeId, rebuildId, queueId, mappingEntry![0]]) {
      expect(ids, id).toContain(id);
    }
    expect(Object.keys(parent.findResources('AWS::Lambda::EventSourceMapping'))).toEqual([]);
    // The one resource-based permission: EventBridge's IVS rule may invoke the IVS event function.
    const permissions = Object.values(
      Template.fromStack(stack.workers).findResources('AWS::Lambda::Permission'),
    );
    expect(permissions).toHaveLength(1);
    expect(permissions[0]!.Properties).toMatchObject({
      Principal: 'events.amazonaws.com',
      FunctionName: { 'Fn::GetAtt': [ivsEventId, 'Arn'] },
    });
  });

  it('follows PROJECTED_ENTITIES: a new entity joins both filters without touching infra', () => {
    const before = [...PROJECTED_ENTITIES];
    (PROJECTED_ENTITIES as unknown as string[]).push('zz-test-entity');
    try {
      const { template: grown } = synthStack(routes.slice(0, 1));
      const f = (Object.values(grown.findResources('AWS::Lambda::EventSourceMapping')) as Json[]).find((m) =>
        String(JSON.stringify(m.Properties.FilterCriteria)).includes('playback'),
      );
      for (const filter of f!.Properties.FilterCriteria.Filters as Json[]) {
        expect(filter.Pattern).toContain('"zz-test-entity"');
      }
    } finally {
      (PROJECTED_ENTITIES as unknown as string[]).splice(0, Infinity, ...before);
    }
  });
});
