import { afterAll, describe, expect, it } from 'vitest';
import { realtimeContracts } from '../../functions/realtime/contracts.ts';
import { cleanUp, synthStack } from './synth.ts';

afterAll(cleanUp);

type Json = Record<string, any>;

const { template } = synthStack(realtimeContracts, { stage: 'prod' });
const resources = template.toJSON().Resources as Record<string, Json>;
const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const idOf = (value: Json | undefined): string | undefined => value?.['Fn::GetAtt']?.[0] ?? value?.Ref;
const functionOf = (routeKey: string) =>
  ofType('AWS::Lambda::Function').find(
    ([, fn]) => fn.Properties.Environment?.Variables?.ROUTE_KEY === routeKey,
  )!;
/** A function's statements: its role's inline policies and the policies attached to it. */
const statementsOf = (fn: Json): Json[] => {
  const roleId = idOf(fn.Properties.Role);
  const role = roleId ? resources[roleId] : undefined;
  const attached = ofType('AWS::IAM::Policy')
    .filter(([, p]) => (p.Properties.Roles as Json[] | undefined)?.some((r) => idOf(r) === roleId))
    .map(([, p]) => p.Properties);
  return [...((role?.Properties.Policies as Json[] | undefined) ?? []), ...attached].flatMap(
    (p) => p.PolicyDocument.Statement as Json[],
  );
};
const json = (value: unknown) => JSON.stringify(value);

describe('live state pushed through AppSync Events (infra/realtime.ts)', () => {
  it('is an Event API: connect and subscribe through our authoriser, publish with IAM only', () => {
    const [[apiId, api]] = ofType('AWS::AppSync::Api') as [[string, Json]];
    const config = api.Properties.EventConfig;
    expect(config.AuthProviders.map((p: Json) => p.AuthType).sort()).toEqual(['AWS_IAM', 'AWS_LAMBDA']);
    expect(config.ConnectionAuthModes).toEqual([{ AuthType: 'AWS_LAMBDA' }]);
    expect(config.DefaultPublishAuthModes).toEqual([{ AuthType: 'AWS_IAM' }]);
    expect(config.DefaultSubscribeAuthModes).toEqual([{ AuthType: 'AWS_LAMBDA' }]);
    const authorizer = config.AuthProviders.find((p: Json) => p.AuthType === 'AWS_LAMBDA');
    const [authorizerId] = functionOf('$appsync/authorize');
    expect(json(authorizer.LambdaAuthorizerConfig.AuthorizerUri)).toContain(authorizerId);
    // No cached answers (shared/realtime/authorizer.ts): a connect's yes must never admit a subscribe.
    expect(authorizer.LambdaAuthorizerConfig.AuthorizerResultTtlInSeconds).toBe(0);
    const namespaces = ofType('AWS::AppSync::ChannelNamespace').map(([, n]) => n.Properties);
    expect(namespaces).toEqual([
      expect.objectContaining({
        Name: 'live',
        PublishAuthModes: [{ AuthType: 'AWS_IAM' }],
        SubscribeAuthModes: [{ AuthType: 'AWS_LAMBDA' }],
      }),
    ]);
    expect(json(namespaces[0].ApiId)).toContain(apiId);
  });

  it('lets only the tick function publish, on the live namespace only, and names the endpoints to the functions', () => {
    const publishers = ofType('AWS::Lambda::Function').filter(([, fn]) =>
      statementsOf(fn).some((s) => [s.Action].flat().includes('appsync:EventPublish')),
    );
    expect(publishers.map(([, fn]) => fn.Properties.Environment.Variables.ROUTE_KEY)).toEqual([
      '$schedule/realtime-ticks',
    ]);
    const [, ticks] = publishers[0]!;
    const grant = statementsOf(ticks).find((s) => [s.Action].flat().includes('appsync:EventPublish'))!;
    expect(json(grant.Resource)).toContain('/channelNamespace/live');
    expect(json(ticks.Properties.Environment.Variables.REALTIME_HTTP_URL)).toContain('Http');
    const [, access] = functionOf('GET /creators/{id}/channel/live/realtime');
    expect(json(access.Properties.Environment.Variables.REALTIME_WS_URL)).toContain('Realtime');
    expect(access.Properties.Environment.Variables.REALTIME_HTTP_URL).toBeUndefined();
  });

  it('runs 12 ticks a minute from a schedule, and alarms on publish errors', () => {
    const schedules = ofType('AWS::Scheduler::Schedule').map(([, s]) => s.Properties);
    const tick = schedules.find((s) => s.Target.Input === json({ ticks: 12 }));
    expect(tick).toMatchObject({ ScheduleExpression: 'rate(1 minute)' });
    const alarms = ofType('AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
    expect(alarms.find((a) => a.MetricName === 'RealtimePublishErrors')).toMatchObject({
      Namespace: 'CreatorStreaming',
      Statistic: 'Sum',
      AlarmActions: [expect.anything()],
    });
  });
});
