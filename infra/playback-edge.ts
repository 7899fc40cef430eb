import { readFileSync } from 'node:fs';
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as s3 from 'aws-cdk-lib/aws-s3';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';

/** The CloudFront Function source; the same file is evaluated by test/infra/playback-edge.test.ts. */
export const VERIFY_SOURCE = new URL('./edge/verify-playback-token.js', import.meta.url);
/** Where the function source expects the HMAC key. */
export const KEY_PLACEHOLDER = '__PLAYBACK_TOKEN_SECRET__';
/** Used when neither the stack prop nor the `streamOriginDomain` context is set. */
export const PLACEHOLDER_ORIGIN = 'stream-origin.example.com';

export interface PlaybackEdgeProps {
  /** The packager/origin serving `/live/<creator>/<stream>/...` over HTTPS. */
  originDomain?: string;
  /** The HMAC key the API signs playback tokens with. */
  secret: secretsmanager.ISecret;
  removalPolicy: RemovalPolicy;
  /** Days CloudFront access logs are kept. */
  logRetentionDays: number;
}

/**
 * `{cdn_url}`: a CloudFront distribution in front of the stream origin whose viewer-request
 * function lets live playback requests through only with a valid playback token. The key is
 * written into the function code at deploy time from a Secrets Manager dynamic reference, so the
 * template never holds it (docs/live.md).
 */
export class PlaybackEdge extends Construct {
  readonly distribution: cloudfront.Distribution;

  constructor(scope: Construct, id: string, props: PlaybackEdgeProps) {
    super(scope, id);
    const [before, after, ...rest] = readFileSync(VERIFY_SOURCE, 'utf8').split(KEY_PLACEHOLDER);
    if (after === undefined || rest.length > 0) throw new Error(`${KEY_PLACEHOLDER} must appear once`);
    const verify = new cloudfront.Function(this, 'VerifyToken', {
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      code: cloudfront.FunctionCode.fromInline(`${before}${props.secret.secretValue.unsafeUnwrap()}${after}`),
      comment: 'Rejects live playback requests without a valid playback token',
    });

    const logs = new s3.Bucket(this, 'AccessLogs', {
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      // CloudFront standard logging writes with an ACL.
      objectOwnership: s3.ObjectOwnership.OBJECT_WRITER,
      removalPolicy: props.removalPolicy,
      // dev: emptied by a custom resource so the stack deletes cleanly with logs in it.
      autoDeleteObjects: props.removalPolicy === RemovalPolicy.DESTROY,
      lifecycleRules: [{ expiration: Duration.days(props.logRetentionDays) }],
    });
    Validations.of(logs).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'This bucket holds the CDN access logs; logging its own access would log the logging.',
    });

    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: 'Live playback ({cdn_url}); tokens verified at the edge',
      defaultBehavior: {
        origin: new origins.HttpOrigin(props.originDomain ?? PLACEHOLDER_ORIGIN, {
          protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
        }),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        // The function strips the token from the path before the cache key is computed and query
        // strings stay out of it, so viewers share cached playlists and segments;
        // without an origin Cache-Control, objects live 2 s (a live playlist changes every segment).
        cachePolicy: new cloudfront.CachePolicy(this, 'LiveCache', {
          defaultTtl: Duration.seconds(2),
          minTtl: Duration.seconds(0),
          maxTtl: Duration.days(1),
          enableAcceptEncodingGzip: true,
        }),
        functionAssociations: [{ function: verify, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
      },
      enableLogging: true,
      logBucket: logs,
      logFilePrefix: 'cdn/',
    });
    // Deleted before the log bucket is emptied (dev), so its last logs do not block the bucket.
    this.distribution.node.addDependency(logs);
    Validations.of(this.distribution).acknowledge(
      {
        id: 'AwsSolutions-CFR1',
        reason:
          'No territory licensing in this service: access is decided per request by the playback token.',
      },
      {
        id: 'AwsSolutions-CFR2',
        reason:
          'A CloudFront-scope WAF web ACL can only be created in us-east-1 and this stack is region-agnostic; every live request is already checked by the token function before it reaches the origin.',
      },
      {
        id: 'AwsSolutions-CFR4',
        reason:
          'No custom domain yet: the default *.cloudfront.net certificate has a security policy CloudFront fixes; TLSv1.2_2021 comes with the custom domain and its ACM certificate (docs/live.md).',
      },
    );
  }
}
