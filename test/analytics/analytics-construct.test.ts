import { Match } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { routes } from '../../functions/routes.ts';
import { metricQueries } from '../../analytics/metrics.ts';
import { cleanUp, synthStack } from '../infra/synth.ts';

afterAll(cleanUp);

describe('the analytics pipeline in the stack', () => {
  const { template } = synthStack(routes);

  it('delivers through Firehose into an encrypted, SSL-only bucket, partitioned by family and date', () => {
    template.hasResourceProperties('AWS::KinesisFirehose::DeliveryStream', {
      ExtendedS3DestinationConfiguration: Match.objectLike({
        Prefix: Match.stringLikeRegexp('family=.*dt=.*hour='),
        CompressionFormat: 'GZIP',
        DynamicPartitioningConfiguration: { Enabled: true, RetryOptions: { DurationInSeconds: 300 } },
      }),
    });
    template.hasResourceProperties('AWS::S3::Bucket', {
      BucketEncryption: Match.anyValue(),
      LifecycleConfiguration: Match.anyValue(),
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
    });
  });

  it('has a Glue table with partition projection, a workgroup and one named query per metric', () => {
    template.hasResourceProperties('AWS::Glue::Table', {
      TableInput: Match.objectLike({ Parameters: Match.objectLike({ 'projection.enabled': 'true' }) }),
    });
    template.resourceCountIs('AWS::Athena::WorkGroup', 1);
    template.resourceCountIs('AWS::Athena::NamedQuery', metricQueries().size);
    const queries = JSON.stringify(template.findResources('AWS::Athena::NamedQuery'));
    expect(queries).toContain('approx_percentile');
    expect(queries).not.toContain('{{');
  });

  it('alarms when Firehose stops delivering, and when it recovers, to the alarm topic', () => {
    const [topicId] = Object.keys(template.findResources('AWS::SNS::Topic'));
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'DeliveryToS3.Success',
      AlarmActions: [{ Ref: topicId }],
      OKActions: [{ Ref: topicId }],
    });
  });

  it('outputs the bucket, the stream, the Glue database and the Athena workgroup', () => {
    const only = (type: string) => {
      const ids = Object.keys(template.findResources(type));
      expect(ids, type).toHaveLength(1);
      return ids[0]!;
    };
    const workgroup = only('AWS::Athena::WorkGroup');
    const stream = only('AWS::KinesisFirehose::DeliveryStream');
    // The events bucket is the one Firehose delivers to (the stack may hold other buckets).
    const bucket =
      template.toJSON().Resources[stream].Properties.ExtendedS3DestinationConfiguration.BucketARN[
        'Fn::GetAtt'
      ][0];
    template.hasOutput('AnalyticsBucket', { Value: { Ref: bucket } });
    template.hasOutput('AnalyticsStream', { Value: { Ref: stream } });
    template.hasOutput('AnalyticsDatabase', { Value: { Ref: only('AWS::Glue::Database') } });
    template.hasOutput('AnalyticsWorkGroup', { Value: { Ref: workgroup } });
    // The output names the workgroup the named queries live in (Ref of a workgroup is its name).
    const names = Object.values(template.findResources('AWS::Athena::NamedQuery')).map(
      (q) => (q as { Properties: { WorkGroup: string } }).Properties.WorkGroup,
    );
    const name = template.toJSON().Resources[workgroup].Properties.Name;
    expect(new Set(names)).toEqual(new Set([name]));
  });
});
