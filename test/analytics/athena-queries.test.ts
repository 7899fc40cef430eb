import { App, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { Analytics } from '../../infra/analytics.ts';
import { metrics } from '../../analytics/metrics.ts';

/** The Analytics construct alone: the title dimension's table, the event expiry, the named queries. */
describe('the title dimension and the metric queries on Athena', () => {
  const stack = new Stack(new App(), 'AnalyticsOnly');
  new Analytics(stack, 'Analytics', { removalPolicy: RemovalPolicy.RETAIN, retentionDays: 730 });
  const template = Template.fromStack(stack);

  it('has a titles table over the catalog rows, with partition projection', () => {
    template.hasResourceProperties('AWS::Glue::Table', {
      TableInput: Match.objectLike({
        Name: 'titles',
        Parameters: Match.objectLike({
          'projection.enabled': 'true',
          'storage.location.template': {
            'Fn::Join': ['', ['s3://', Match.anyValue(), `/events/family=catalog/dt=\${dt}/hour=\${hour}/`]],
          },
        }),
        StorageDescriptor: Match.objectLike({
          Columns: Match.arrayWith([
            { Name: 'title', Type: 'string' },
            { Name: 'category', Type: 'string' },
          ]),
        }),
      }),
    });
  });

  it('has a payments table over the payment facts, with partition projection', () => {
    template.hasResourceProperties('AWS::Glue::Table', {
      TableInput: Match.objectLike({
        Name: 'payments',
        Parameters: Match.objectLike({
          'projection.enabled': 'true',
          'storage.location.template': {
            'Fn::Join': ['', ['s3://', Match.anyValue(), `/events/family=payment/dt=\${dt}/hour=\${hour}/`]],
          },
        }),
        StorageDescriptor: Match.objectLike({
          Columns: Match.arrayWith([
            { Name: 'amount', Type: 'bigint' },
            { Name: 'monthly_amount', Type: 'double' },
          ]),
        }),
      }),
    });
  });

  it('expires events, never the title rows nor the payment facts', () => {
    const [bucket] = Object.values(template.findResources('AWS::S3::Bucket')) as Array<{
      Properties: { LifecycleConfiguration: { Rules: Array<{ Prefix: string; ExpirationInDays: number }> } };
    }>;
    const rules = bucket!.Properties.LifecycleConfiguration.Rules;
    expect(
      rules.filter((r) => r.Prefix.startsWith('events/')).map((r) => [r.Prefix, r.ExpirationInDays]),
    ).toEqual([
      ['events/family=video/', 730],
      ['events/family=live/', 730],
    ]);
  });

  it('names each metric query per day with the period as six parameters, pruned by dt', () => {
    const queries = Object.values(template.findResources('AWS::Athena::NamedQuery')) as Array<{
      Properties: { QueryString: string; Description: string };
    }>;
    expect(queries).toHaveLength(metrics().size);
    const payments = queries.filter((q) => q.Properties.QueryString.includes('FROM payments f'));
    expect(payments).toHaveLength(4);
    for (const { Properties: q } of payments) {
      // from and to, once per part that reads the period (MRR: its buckets and its facts)
      expect(q.QueryString.match(/\?/g)?.length, q.QueryString).toBeOneOf([2, 4]);
      expect(q.Description).toMatch(/Unit: .+Parameters: from and to/);
    }
    for (const { Properties: q } of queries.filter((q) => !payments.includes(q))) {
      expect(q.QueryString).toContain('e.dt BETWEEN ? AND ?');
      expect(q.QueryString.match(/\?/g)).toHaveLength(6);
      expect(q.QueryString).toContain('LEFT JOIN');
      expect(q.Description).toMatch(/Unit: .+Parameters:/);
    }
  });
});
