import { afterAll, describe, expect, it } from 'vitest';
import { createAccount, sendEmailVerification } from '../../functions/identity/contracts.ts';
import { routes } from '../../functions/routes.ts';
import { MAIL_FEEDBACK_DETAIL_TYPES } from '../../infra/mail.ts';
import { routeKey } from '../../shared/routing/route.ts';
import { functionKey } from '../../shared/routing/function-row.ts';
import { accountJobsRow } from '../../functions/accounts/workers.ts';
import { cleanUp, PROD_SETTINGS, synthStack } from './synth.ts';

afterAll(cleanUp);

type Json = Record<string, any>;

const { template } = synthStack(
  routes.filter((r) => r.handler.startsWith('identity/')),
  { stage: 'prod' },
);
const resources = template.toJSON().Resources as Record<string, Json>;
const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const idOf = (value: Json | undefined): string | undefined => value?.['Fn::GetAtt']?.[0] ?? value?.Ref;
const functions = ofType('AWS::Lambda::Function').filter(
  ([, fn]) => fn.Properties.Environment?.Variables?.ROUTE_KEY,
);
const statementsOf = (fn: Json): Json[] =>
  (resources[idOf(fn.Properties.Role)!]!.Properties.Policies as Json[]).flatMap(
    (p) => p.PolicyDocument.Statement as Json[],
  );
const sends = (fn: Json) => statementsOf(fn).filter((s) => [s.Action].flat().includes('ses:SendEmail'));

describe('mail on AWS (infra/mail.ts)', () => {
  const [[setId]] = ofType('AWS::SES::ConfigurationSet') as [[string, Json]];

  it('publishes the configuration set’s bounces and complaints to the default bus, and a rule queues them', () => {
    const [[, destination]] = ofType('AWS::SES::ConfigurationSetEventDestination') as [[string, Json]];
    expect(idOf(destination.Properties.ConfigurationSetName)).toBe(setId);
    expect(destination.Properties.EventDestination).toMatchObject({
      Enabled: true,
      MatchingEventTypes: ['BOUNCE', 'COMPLAINT'],
      EventBridgeDestination: {
        EventBusArn: { 'Fn::Join': ['', expect.arrayContaining([':event-bus/default'])] },
      },
    });
    const rules = ofType('AWS::Events::Rule').filter(
      ([, r]) => r.Properties.EventPattern.source?.[0] === 'aws.ses',
    );
    expect(rules).toHaveLength(1);
    const rule = rules[0]![1].Properties;
    expect(rule.EventBusName).toBeUndefined();
    expect(rule.EventPattern['detail-type']).toEqual([...MAIL_FEEDBACK_DETAIL_TYPES]);
    expect(idOf(rule.EventPattern.detail.mail.tags['ses:configuration-set'][0])).toBe(setId);
    const queueId = idOf(rule.Targets[0].Arn)!;
    expect(resources[queueId]!.Type).toBe('AWS::SQS::Queue');
    // The feedback worker consumes that queue, with partial batch failures, and has a dead-letter alarm.
    const [mapping] = ofType('AWS::Lambda::EventSourceMapping')
      .map(([, m]) => m.Properties)
      .filter((m) => idOf(m.EventSourceArn) === queueId);
    expect(mapping).toMatchObject({ FunctionResponseTypes: ['ReportBatchItemFailures'] });
    const worker = resources[idOf(mapping.FunctionName)!]!;
    expect(worker.Properties.Environment.Variables.ROUTE_KEY).toBe('$queue/mail-feedback');
    expect(sends(worker)).toEqual([]);
    const deadLetters = idOf(resources[queueId]!.Properties.RedrivePolicy.deadLetterTargetArn)!;
    const alarms = ofType('AWS::CloudWatch::Alarm').filter(([, a]) =>
      (a.Properties.Dimensions ?? []).some((d: Json) => idOf(d.Value) === deadLetters),
    );
    expect(alarms).toHaveLength(1);
  });

  it('lets exactly the sign-up and resend functions and the account jobs worker (password-reset codes) send, from the identity, through the configuration set', () => {
    const senders = functions.filter(([, fn]) => sends(fn).length > 0);
    expect(senders.map(([, fn]) => fn.Properties.Environment.Variables.ROUTE_KEY).sort()).toEqual(
      [...[createAccount, sendEmailVerification].map(routeKey), functionKey(accountJobsRow)].sort(),
    );
    for (const [, fn] of senders) {
      const [statement] = sends(fn);
      const resourcesText = JSON.stringify(statement!.Resource);
      // The identity is the From address's domain; the configuration set is the stack's.
      expect(resourcesText).toContain(':identity/mail.example.org');
      expect(resourcesText).toContain(':configuration-set/');
      expect(resourcesText).toContain(setId);
      expect([statement!.Action].flat()).toEqual(['ses:SendEmail']);
      const env = fn.Properties.Environment.Variables;
      expect(env.MAIL_FROM).toBe(PROD_SETTINGS.mailFrom);
      // The configuration set's name, passed from the Mail stack to the identity routes' stack.
      expect(JSON.stringify(env.MAIL_CONFIGURATION_SET)).toContain(setId);
    }
    // No other function gets the settings.
    for (const [, fn] of functions.filter(([, f]) => sends(f).length === 0))
      expect(fn.Properties.Environment.Variables.MAIL_FROM).toBeUndefined();
  });
});
