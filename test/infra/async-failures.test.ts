import { afterAll, describe, expect, it } from 'vitest';
import { routes } from '../../functions/routes.ts';
import { ASYNC_INVOKE } from '../../infra/async-failures.ts';
import { cleanUp, synthStack } from './synth.ts';

afterAll(cleanUp);

type Json = Record<string, any>;

const { template } = synthStack(routes.slice(0, 2));
const resources = template.toJSON().Resources as Record<string, Json>;
const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
/** `{ Fn::GetAtt: [id, 'Arn'] }` or `{ Ref: id }` → id. */
const idOf = (value: Json | undefined): string | undefined => value?.['Fn::GetAtt']?.[0] ?? value?.Ref;

/** Every function EventBridge invokes asynchronously: rule targets and Scheduler schedules. */
const asyncTargets = (): string[] => {
  const ids = [
    ...ofType('AWS::Events::Rule').flatMap(([, rule]) =>
      (rule.Properties.Targets as Json[]).map((target) => idOf(target.Arn)),
    ),
    ...ofType('AWS::Scheduler::Schedule').map(([, schedule]) => idOf(schedule.Properties.Target.Arn)),
  ];
  return [...new Set(ids.filter((id): id is string => resources[id!]?.Type === 'AWS::Lambda::Function'))];
};

describe('asynchronously invoked functions keep the events they fail on', () => {
  const targets = asyncTargets();

  it('finds the IVS event function, the webhook fan-out and the five scheduled functions', () => {
    const keys = targets.map((id) => resources[id]!.Properties.Environment.Variables.ROUTE_KEY).sort();
    expect(keys).toEqual([
      '$events/ivs',
      '$events/webhook-fan-out',
      '$schedule/publish-audiences',
      '$schedule/realtime-ticks',
      '$schedule/recompute-windows',
      '$schedule/reconcile-payments',
      '$schedule/reconcile-stores',
    ]);
  });

  it('gives each an on-failure SQS destination after 2 retries, and an alarm on that queue', () => {
    const configs = ofType('AWS::Lambda::EventInvokeConfig').map(([, c]) => c.Properties);
    const alarms = ofType('AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
    for (const id of targets) {
      const config = configs.find((c) => idOf(c.FunctionName) === id);
      expect(config, id).toBeDefined();
      // The realtime ticks are not retried: the next minute's run replaces a failed one.
      const replaced =
        resources[id]!.Properties.Environment.Variables.ROUTE_KEY === '$schedule/realtime-ticks';
      expect(config).toMatchObject({
        Qualifier: '$LATEST',
        MaximumRetryAttempts: replaced ? 0 : ASYNC_INVOKE.retryAttempts,
        MaximumEventAgeInSeconds: replaced ? 60 : ASYNC_INVOKE.maxEventAgeHours * 3600,
      });
      const queueId = idOf(config!.DestinationConfig.OnFailure.Destination)!;
      expect(resources[queueId]?.Type, id).toBe('AWS::SQS::Queue');
      // One queue per function: its alarm says whose events wait there.
      expect(configs.filter((c) => idOf(c.DestinationConfig.OnFailure.Destination) === queueId)).toHaveLength(
        1,
      );
      const watching = alarms.filter((a) =>
        (a.Dimensions ?? []).some((d: Json) => d.Name === 'QueueName' && idOf(d.Value) === queueId),
      );
      expect(watching, id).toHaveLength(1);
      expect(watching[0]).toMatchObject({
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Threshold: 1,
        AlarmActions: [expect.anything()],
      });
      expect(watching[0]!.AlarmDescription).toContain('docs/operations.md#redrive');
      // The function may send to its queue (Lambda sends the record with the function's role).
      const roleId = idOf(resources[id]!.Properties.Role)!;
      const statements = (resources[roleId]!.Properties.Policies as Json[]).flatMap(
        (p) => p.PolicyDocument.Statement as Json[],
      );
      expect(
        statements.some((s) => [s.Action].flat().includes('sqs:SendMessage') && idOf(s.Resource) === queueId),
        id,
      ).toBe(true);
    }
  });
});
