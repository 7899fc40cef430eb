import { afterAll, describe, expect, it } from 'vitest';
import { routes } from '../../functions/routes.ts';
import { cleanUp, synthStack } from './synth.ts';

afterAll(cleanUp);

type Resource = {
  Type: string;
  Properties: Record<string, any>;
  DeletionPolicy?: string;
  DependsOn?: string[];
};

/** Every bucket CloudFormation would create, by logical id. */
const bucketsOf = (resources: Record<string, Resource>) =>
  Object.entries(resources).filter(([, r]) => r.Type === 'AWS::S3::Bucket');

/** The bucket logical id each auto-delete custom resource empties. */
const autoDeletedBuckets = (resources: Record<string, Resource>): string[] =>
  Object.values(resources)
    .filter((r) => r.Type === 'Custom::S3AutoDeleteObjects')
    .map((r) => r.Properties.BucketName.Ref as string);

describe.each(['dev', 'prod'] as const)('S3 lifecycle rules CloudFormation accepts (%s)', (stage) => {
  const { template } = synthStack(routes.slice(0, 2), { stage });
  const resources = template.toJSON().Resources as Record<string, Resource>;
  const rules = bucketsOf(resources).flatMap(([id, bucket]) =>
    (bucket.Properties.LifecycleConfiguration?.Rules ?? []).map((rule: any) => ({ id, rule })),
  );

  it('expires every rule after each of its transitions (S3 rejects expiration <= transition)', () => {
    expect(rules.length).toBeGreaterThanOrEqual(4);
    for (const { id, rule } of rules) {
      for (const transition of rule.Transitions ?? []) {
        expect(rule.ExpirationInDays, `${id} ${rule.Prefix ?? ''}`).toBeGreaterThan(
          transition.TransitionInDays,
        );
        // Standard-IA takes objects 30 days old at the earliest.
        if (transition.StorageClass === 'STANDARD_IA')
          expect(transition.TransitionInDays).toBeGreaterThanOrEqual(30);
      }
    }
  });

  it('keeps raw events for the stage retention: dev 30 days in Standard, prod 2 years with IA after 30', () => {
    // Per family: the title dimension beside them (events/family=catalog/) never expires.
    const onEvents = rules.filter(({ rule }) => rule.Prefix?.startsWith('events/')).map(({ rule }) => rule);
    expect(onEvents.map((rule) => rule.Prefix)).toEqual(['events/family=video/', 'events/family=live/']);
    for (const events of onEvents) {
      if (stage === 'dev') {
        expect(events).toMatchObject({ ExpirationInDays: 30 });
        expect(events.Transitions).toBeUndefined();
      } else {
        expect(events).toMatchObject({
          ExpirationInDays: 730,
          Transitions: [{ StorageClass: 'STANDARD_IA', TransitionInDays: 30 }],
        });
      }
    }
  });
});

describe('dev tears down with data in it', () => {
  const { template } = synthStack(routes.slice(0, 2), { stage: 'dev' });
  const resources = template.toJSON().Resources as Record<string, Resource>;
  const idOf = (type: string) => Object.keys(resources).find((id) => resources[id]!.Type === type)!;

  it('empties every bucket (analytics events, CDN access logs) before deleting it', () => {
    const buckets = bucketsOf(resources);
    expect(buckets.length).toBeGreaterThanOrEqual(2);
    for (const [, bucket] of buckets) expect(bucket.DeletionPolicy).toBe('Delete');
    expect(autoDeletedBuckets(resources).sort()).toEqual(buckets.map(([id]) => id).sort());
  });

  it('deletes the Athena workgroup with its query history and named queries', () => {
    template.hasResourceProperties('AWS::Athena::WorkGroup', { RecursiveDeleteOption: true });
  });

  it('deletes the writers (Firehose stream, CDN) before their buckets are emptied', () => {
    const emptier = (bucket: string) =>
      Object.keys(resources).find(
        (id) =>
          resources[id]!.Type === 'Custom::S3AutoDeleteObjects' &&
          resources[id]!.Properties.BucketName.Ref === bucket,
      )!;
    const stream = resources[idOf('AWS::KinesisFirehose::DeliveryStream')]!;
    const streamBucket = stream.Properties.ExtendedS3DestinationConfiguration.BucketARN['Fn::GetAtt'][0];
    expect(stream.DependsOn).toContain(emptier(streamBucket));
    const cdn = resources[idOf('AWS::CloudFront::Distribution')]!;
    const logBucket = cdn.Properties.DistributionConfig.Logging.Bucket['Fn::GetAtt'][0];
    expect(cdn.DependsOn).toContain(emptier(logBucket));
  });
});

describe('prod keeps its data', () => {
  const { template } = synthStack(routes.slice(0, 2), { stage: 'prod' });
  const resources = template.toJSON().Resources as Record<string, Resource>;

  it('retains every bucket and never empties one', () => {
    const buckets = bucketsOf(resources);
    expect(buckets.length).toBeGreaterThanOrEqual(2);
    for (const [id, bucket] of buckets) expect(bucket.DeletionPolicy, id).toBe('Retain');
    expect(autoDeletedBuckets(resources)).toEqual([]);
    template.resourceCountIs('Custom::S3AutoDeleteObjects', 0);
  });

  it('does not delete the Athena workgroup history recursively', () => {
    const [workgroup] = Object.values(template.findResources('AWS::Athena::WorkGroup')) as Resource[];
    expect(workgroup!.Properties.RecursiveDeleteOption ?? false).toBe(false);
  });
});
