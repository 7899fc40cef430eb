import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import * as athena from 'aws-cdk-lib/aws-athena';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as firehose from 'aws-cdk-lib/aws-kinesisfirehose';
import * as glue from 'aws-cdk-lib/aws-glue';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { EVENT_COLUMNS, metrics, renderSql } from '../analytics/metrics.ts';
import { PAYMENT_COLUMNS } from '../shared/analytics/payment-facts.ts';
import { TITLE_COLUMNS } from '../shared/analytics/title-dimension.ts';

export interface AnalyticsProps {
  /** DESTROY (dev): the bucket is emptied and deleted with the stack, the workgroup with its history. */
  removalPolicy: RemovalPolicy;
  /** Days raw events are kept in S3 before expiry. */
  retentionDays: number;
}

/** Raw events move to S3 Standard-IA after this many days (S3's minimum for IA), if kept longer. */
export const INFREQUENT_ACCESS_AFTER_DAYS = 30;

/**
 * The analytics pipeline: Firehose (Direct PUT) → encrypted S3, dynamically partitioned as
 * `events/family=<family>/dt=<YYYY-MM-DD>/hour=<HH>/` (the local sink writes the same layout),
 * GZIP; a Glue table over it with partition projection (no crawler); an Athena workgroup with an
 * encrypted result location; the metric queries of analytics/queries as named queries.
 */
export class Analytics extends Construct {
  readonly bucket: s3.Bucket;
  readonly deliveryStreamName: string;
  /** Glue database holding the `events` table (what Athena queries run against). */
  readonly databaseName: string;
  /** Athena workgroup with the encrypted result location and the named metric queries. */
  readonly workgroupName: string;
  readonly deliveryFailureAlarm: cloudwatch.Alarm;
  /** ARN of the delivery stream (rows with `analytics-sink` get PutRecordBatch on it). */
  readonly streamArn: string;

  constructor(scope: Construct, id: string, props: AnalyticsProps) {
    super(scope, id);
    const destroy = props.removalPolicy === RemovalPolicy.DESTROY;
    this.bucket = new s3.Bucket(this, 'Events', {
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      removalPolicy: props.removalPolicy,
      // A bucket with objects cannot be deleted: in dev a custom resource empties it first.
      autoDeleteObjects: destroy,
      lifecycleRules: [
        ...['video', 'live'].map((family) => ({
          // Events only: the title dimension (events/family=catalog/) is kept for good.
          prefix: `events/family=${family}/`,
          // S3 rejects a rule whose expiration is not after its transition: events kept no longer
          // than the IA minimum (dev: 30 days) stay in Standard until they expire.
          transitions:
            props.retentionDays > INFREQUENT_ACCESS_AFTER_DAYS
              ? [
                  {
                    storageClass: s3.StorageClass.INFREQUENT_ACCESS,
                    transitionAfter: Duration.days(INFREQUENT_ACCESS_AFTER_DAYS),
                  },
                ]
              : [],
          expiration: Duration.days(props.retentionDays),
        })),
        { prefix: 'athena-results/', expiration: Duration.days(7) },
        { prefix: 'errors/', expiration: Duration.days(30) },
      ],
    });
    Validations.of(this.bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'Analytics event bucket written only by Firehose and read by Athena; CloudTrail data events cover access auditing.',
    });

    const role = new iam.Role(this, 'DeliveryRole', {
      assumedBy: new iam.ServicePrincipal('firehose.amazonaws.com'),
    });
    role.addToPolicy(
      new iam.PolicyStatement({
        actions: [
          's3:AbortMultipartUpload',
          's3:GetBucketLocation',
          's3:GetObject',
          's3:ListBucket',
          's3:ListBucketMultipartUploads',
          's3:PutObject',
        ],
        resources: [this.bucket.bucketArn, this.bucket.arnForObjects('*')],
      }),
    );
    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::<AnalyticsEventsDFD3F498.Arn>/*]',
      reason:
        'Firehose writes objects under dynamic partition prefixes of this one bucket (the documented Firehose S3 destination policy).',
    });

    const stream = new firehose.CfnDeliveryStream(this, 'Stream', {
      deliveryStreamType: 'DirectPut',
      deliveryStreamEncryptionConfigurationInput: { keyType: 'AWS_OWNED_CMK' },
      extendedS3DestinationConfiguration: {
        bucketArn: this.bucket.bucketArn,
        roleArn: role.roleArn,
        prefix:
          'events/family=!{partitionKeyFromQuery:family}/dt=!{partitionKeyFromQuery:dt}/hour=!{partitionKeyFromQuery:hour}/',
        errorOutputPrefix: 'errors/!{firehose:error-output-type}/dt=!{timestamp:yyyy-MM-dd}/',
        compressionFormat: 'GZIP',
        bufferingHints: { intervalInSeconds: 60, sizeInMBs: 64 },
        dynamicPartitioningConfiguration: { enabled: true, retryOptions: { durationInSeconds: 300 } },
        processingConfiguration: {
          enabled: true,
          processors: [
            {
              type: 'MetadataExtraction',
              parameters: [
                {
                  parameterName: 'MetadataExtractionQuery',
                  parameterValue: '{family: .family, dt: .received_at[0:10], hour: .received_at[11:13]}',
                },
                { parameterName: 'JsonParsingEngine', parameterValue: 'JQ-1.6' },
              ],
            },
          ],
        },
      },
    });
    stream.node.addDependency(role);
    // On stack deletion the stream goes first (it depends on the bucket and, in dev, on the
    // custom resource that empties it), so no delivery lands after the bucket was emptied.
    stream.node.addDependency(this.bucket);
    this.deliveryStreamName = stream.ref;
    this.streamArn = stream.attrArn;

    const database = new glue.CfnDatabase(this, 'Database', {
      catalogId: Stack.of(this).account,
      databaseInput: {
        name: `${Stack.of(this)
          .stackName.toLowerCase()
          .replace(/[^a-z0-9_]/g, '_')}_analytics`,
      },
    });
    this.databaseName = database.ref;
    const location = `s3://${this.bucket.bucketName}/events/`;
    const table = new glue.CfnTable(this, 'EventsTable', {
      catalogId: Stack.of(this).account,
      databaseName: database.ref,
      tableInput: {
        name: 'events',
        tableType: 'EXTERNAL_TABLE',
        partitionKeys: [
          { name: 'family', type: 'string' },
          { name: 'dt', type: 'string' },
          { name: 'hour', type: 'string' },
        ],
        parameters: {
          'projection.enabled': 'true',
          'projection.family.type': 'enum',
          'projection.family.values': 'video,live',
          'projection.dt.type': 'date',
          'projection.dt.format': 'yyyy-MM-dd',
          'projection.dt.range': '2026-01-01,NOW',
          'projection.hour.type': 'integer',
          'projection.hour.range': '0,23',
          'projection.hour.digits': '2',
          'storage.location.template': `${location}family=\${family}/dt=\${dt}/hour=\${hour}/`,
          classification: 'json',
        },
        storageDescriptor: {
          location,
          columns: Object.entries(EVENT_COLUMNS).map(([name, type]) => ({ name, type })),
          inputFormat: 'org.apache.hadoop.mapred.TextInputFormat',
          outputFormat: 'org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat',
          serdeInfo: {
            serializationLibrary: 'org.openx.data.jsonserde.JsonSerDe',
            parameters: { 'ignore.malformed.json': 'true' },
          },
        },
      },
    });

    // Tables over families the projector sends through the same stream, kept for good: the title
    // dimension (shared/analytics/title-dimension.ts, family `catalog`; queries read each id's
    // newest row) and the payment facts (shared/analytics/payment-facts.ts, family `payment`;
    // queries keep one row per event_id).
    const familyTable = (id: string, name: string, family: string, columns: Record<string, string>) => {
      const location = `s3://${this.bucket.bucketName}/events/family=${family}/`;
      return new glue.CfnTable(this, id, {
        catalogId: Stack.of(this).account,
        databaseName: database.ref,
        tableInput: {
          name,
          tableType: 'EXTERNAL_TABLE',
          partitionKeys: [
            { name: 'dt', type: 'string' },
            { name: 'hour', type: 'string' },
          ],
          parameters: {
            'projection.enabled': 'true',
            'projection.dt.type': 'date',
            'projection.dt.format': 'yyyy-MM-dd',
            'projection.dt.range': '2026-01-01,NOW',
            'projection.hour.type': 'integer',
            'projection.hour.range': '0,23',
            'projection.hour.digits': '2',
            'storage.location.template': `${location}dt=\${dt}/hour=\${hour}/`,
            classification: 'json',
          },
          storageDescriptor: {
            location,
            columns: Object.entries(columns).map(([column, type]) => ({ name: column, type })),
            inputFormat: 'org.apache.hadoop.mapred.TextInputFormat',
            outputFormat: 'org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat',
            serdeInfo: {
              serializationLibrary: 'org.openx.data.jsonserde.JsonSerDe',
              parameters: { 'ignore.malformed.json': 'true' },
            },
          },
        },
      });
    };
    const titles = familyTable('TitlesTable', 'titles', 'catalog', TITLE_COLUMNS);
    const payments = familyTable('PaymentsTable', 'payments', 'payment', PAYMENT_COLUMNS);

    const workgroup = new athena.CfnWorkGroup(this, 'WorkGroup', {
      name: `${Stack.of(this).stackName}-analytics`,
      state: 'ENABLED',
      // dev: delete the workgroup with its query history and named queries along with the stack.
      recursiveDeleteOption: destroy,
      workGroupConfiguration: {
        enforceWorkGroupConfiguration: true,
        publishCloudWatchMetricsEnabled: true,
        resultConfiguration: {
          outputLocation: `s3://${this.bucket.bucketName}/athena-results/`,
          encryptionConfiguration: { encryptionOption: 'SSE_S3' },
        },
      },
    });
    this.workgroupName = workgroup.ref;
    // One named query per metric, per day with no breakdown; the period is execution
    // parameters (analytics/metrics.ts `Slice.parameters`). Other grains and breakdowns:
    // `npm run analytics -- sql <metric> --dialect athena --by … --grain …` prints the text.
    for (const [name, metric] of metrics()) {
      const query = new athena.CfnNamedQuery(
        this,
        `Query${name.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase())}`,
        {
          name,
          database: database.ref,
          workGroup: workgroup.name,
          description: `${metric.definition} Unit: ${metric.unit}. Parameters: ${
            metric.sql.includes('{{events}}')
              ? "first and last dt ('YYYY-MM-DD'), first and last dt||hour ('YYYY-MM-DDHH'): UTC receive times from 1 h before the period to 3 h after it; from and to (epoch ms, to exclusive)."
              : 'from and to (epoch ms, to exclusive), repeated for each part of the query that reads the period.'
          }`.slice(0, 1024),
          queryString: renderSql(metric.sql, 'athena', {
            fromMs: 0,
            toMs: 0,
            grain: 'day',
            parameters: true,
          }),
        },
      );
      query.addResourceDependency(workgroup);
      query.addResourceDependency(table);
      query.addResourceDependency(titles);
      query.addResourceDependency(payments);
    }

    this.deliveryFailureAlarm = new cloudwatch.Alarm(this, 'DeliveryFailures', {
      alarmDescription: 'Firehose is not delivering analytics events to S3 (see docs/operations.md)',
      metric: new cloudwatch.Metric({
        namespace: 'AWS/Firehose',
        metricName: 'DeliveryToS3.Success',
        dimensionsMap: { DeliveryStreamName: stream.ref },
        statistic: 'Average',
        period: Duration.minutes(5),
      }),
      threshold: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD,
      evaluationPeriods: 3,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
  }
}
