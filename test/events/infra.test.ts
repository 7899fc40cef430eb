import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { EVENT_STREAM_MAPPING, EVENTS_ITERATOR_AGE_ALARM_MS } from '../../infra/events.ts';
import { PUBLISHED_ENTITIES } from '../../shared/events/changes.ts';
import { cleanUp, SYNTH_TIMEOUT, synthStack, syntheticRoutes } from '../infra/synth.ts';

afterAll(cleanUp);

type Json = Record<string, any>;

describe('the Events stack (infra/events.ts)', () => {
  // A small route table keeps the synth short; the Events stack does not depend on the routes.
  const { stack } = synthStack(syntheticRoutes(2));
  const events = Template.fromStack(stack.events);
  const resources = events.toJSON().Resources as Record<string, Json>;
  const byType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
  const [[busId]] = byType('AWS::Events::EventBus') as [[string, Json]];
  const [[roleId, role]] = byType('AWS::IAM::Role') as [[string, Json]];
  const [[, fn]] = byType('AWS::Lambda::Function') as [[string, Json]];
  const statements = role.Properties.Policies.flatMap((p: Json) => p.PolicyDocument.Statement) as Json[];

  it(
    'has one bus whose policy denies PutEvents to every principal but the publisher role',
    () => {
      const [[, policy]] = byType('AWS::Events::EventBusPolicy') as [[string, Json]];
      expect(policy.Properties.EventBusName).toEqual({ Ref: busId });
      expect(policy.Properties.Statement).toMatchObject({
        Effect: 'Deny',
        Principal: { AWS: '*' },
        Action: 'events:PutEvents',
        Resource: { 'Fn::GetAtt': [busId, 'Arn'] },
        Condition: { ArnNotEquals: { 'aws:PrincipalArn': { 'Fn::GetAtt': [roleId, 'Arn'] } } },
      });
    },
    SYNTH_TIMEOUT,
  );

  it('gives the publisher PutEvents on that bus only, the stream, its failure queue, and no table access', () => {
    const onEvents = statements.filter((s) => JSON.stringify(s.Action).includes('events:'));
    expect(onEvents).toEqual([
      { Action: 'events:PutEvents', Effect: 'Allow', Resource: { 'Fn::GetAtt': [busId, 'Arn'] } },
    ]);
    const dynamo = statements.filter((s) => JSON.stringify(s.Action).includes('dynamodb:'));
    // The stream's reads on its ARN; ListStreams on '*', the only resource IAM authorizes it on.
    expect(dynamo).toHaveLength(2);
    expect(dynamo[0]?.Action).toEqual([
      'dynamodb:DescribeStream',
      'dynamodb:GetRecords',
      'dynamodb:GetShardIterator',
    ]);
    expect(JSON.stringify(dynamo[0]?.Resource)).toContain('StreamArn');
    expect(dynamo[1]).toMatchObject({ Action: 'dynamodb:ListStreams', Resource: '*' });
    for (const s of statements) expect(JSON.stringify(s.Action)).not.toMatch(/:\*"/);
    expect(fn.Properties.Environment.Variables).toMatchObject({
      EVENT_BUS_NAME: { Ref: busId },
      ROUTE_KEY: '$stream/events',
    });
    expect(fn.Properties.Environment.Variables.TABLE_NAME).toBeUndefined();
    expect(fn.Properties).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], Timeout: 60 });
  });

  it('reads the stream filtered to the published entities, with item failures, bisection, retries and an on-failure queue', () => {
    const [[, mapping]] = byType('AWS::Lambda::EventSourceMapping') as [[string, Json]];
    const [[queueId]] = byType('AWS::SQS::Queue') as [[string, Json]];
    expect(mapping.Properties).toMatchObject({
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: EVENT_STREAM_MAPPING.batchSize,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: EVENT_STREAM_MAPPING.retryAttempts,
      MaximumRecordAgeInSeconds: EVENT_STREAM_MAPPING.maxRecordAgeHours * 3600,
      ParallelizationFactor: 1,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [queueId, 'Arn'] } } },
    });
    const patterns = mapping.Properties.FilterCriteria.Filters.map((f: Json) => JSON.parse(f.Pattern));
    expect(patterns).toEqual([
      { dynamodb: { NewImage: { entity: { S: [...PUBLISHED_ENTITIES] } } } },
      { dynamodb: { OldImage: { entity: { S: [...PUBLISHED_ENTITIES] } } } },
    ]);
  });

  it('alarms on errors, throttles, iterator age, failed entries, invalid events and given-up batches', () => {
    const alarms = byType('AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
    const metricNames = alarms.map(
      (a) => a.MetricName ?? a.Metrics?.map((m: Json) => m.MetricStat?.Metric?.MetricName),
    );
    expect(metricNames.flat().filter(Boolean)).toEqual(
      expect.arrayContaining([
        'Errors',
        'Throttles',
        'IteratorAge',
        'events_failed_entries',
        'events_invalid',
        'ApproximateNumberOfMessagesVisible',
      ]),
    );
    expect(alarms.find((a) => a.MetricName === 'IteratorAge')?.Threshold).toBe(EVENTS_ITERATOR_AGE_ALARM_MS);
    for (const alarm of alarms) expect(alarm.AlarmActions).toHaveLength(1);
  });
});
