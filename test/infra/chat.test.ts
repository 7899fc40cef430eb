import type { NestedStack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { routes } from '../../functions/routes.ts';
import { CHAT_LOG_DAYS } from '../../infra/chat.ts';
import { cleanUp, synthStack } from './synth.ts';

afterAll(cleanUp);

type Json = Record<string, any>;

describe('live chat in the stack (infra/chat.ts, docs/chat.md "The stack")', () => {
  const { parent, stack } = synthStack(routes.slice(0, 1), { stage: 'dev' });
  const chat = Template.fromStack(stack.node.findChild('Chat') as NestedStack).toJSON().Resources as Record<
    string,
    Json
  >;
  const of = (type: string) => Object.values(chat).filter((r) => r.Type === type);

  it('IVS Chat may invoke the review handler for the account’s rooms only', () => {
    const permissions = of('AWS::Lambda::Permission').filter(
      (p) => p.Properties.Principal === 'ivschat.amazonaws.com',
    );
    expect(permissions).toHaveLength(1);
    const { SourceArn, SourceAccount, Action } = permissions[0]!.Properties;
    expect(Action).toBe('lambda:InvokeFunction');
    expect(SourceAccount).toEqual({ Ref: 'AWS::AccountId' });
    expect(JSON.stringify(SourceArn)).toMatch(/:ivschat:.*:room\/\*/);
  });

  it('alarms on the review handler’s errors, throttles and p99 duration near IVS’s 200 ms, each to the alarm topic', () => {
    const alarms = of('AWS::CloudWatch::Alarm');
    const text = alarms.map((a) => JSON.stringify(a.Properties));
    expect(text.some((t) => t.includes('"Errors"'))).toBe(true);
    expect(text.some((t) => t.includes('"Throttles"'))).toBe(true);
    const slow = alarms.find((a) => a.Properties.MetricName === 'Duration');
    expect(slow?.Properties).toMatchObject({
      ExtendedStatistic: 'p99',
      Threshold: 150,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    for (const alarm of alarms) expect(alarm.Properties.AlarmActions).toHaveLength(1);
  });

  it('alarms on the first DisconnectUser that failed for a deleted or signed-out account', () => {
    const failures = of('AWS::CloudWatch::Alarm').find(
      (a) => a.Properties.MetricName === 'chat_disconnect_failures',
    );
    expect(failures?.Properties).toMatchObject({
      Namespace: 'CreatorStreaming',
      Statistic: 'Sum',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
  });

  it('every room logs to a private bucket that keeps chat for CHAT_LOG_DAYS', () => {
    const resources = parent.toJSON().Resources as Record<string, Json>;
    const logging = Object.values(resources).find((r) => r.Type === 'AWS::IVSChat::LoggingConfiguration')!;
    const bucketId = logging.Properties.DestinationConfiguration.S3.BucketName.Ref as string;
    const bucket = resources[bucketId]!.Properties;
    expect(bucket.LifecycleConfiguration.Rules).toEqual([
      expect.objectContaining({ ExpirationInDays: CHAT_LOG_DAYS, Status: 'Enabled' }),
    ]);
    expect(bucket.PublicAccessBlockConfiguration).toMatchObject({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
  });
});
