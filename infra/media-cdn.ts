import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { SignedFunctionUrlOrigin } from './media-playlists.ts';

export interface MediaCdnProps {
  /** The bucket IVS records broadcasts into (infra/live-video.ts). */
  recordings: s3.IBucket;
  removalPolicy: RemovalPolicy;
  /** Days CloudFront access logs are kept. */
  logRetentionDays: number;
  /** The keys whose signatures it accepts on recorded media (infra/playback-keys.ts). */
  keyGroup: cloudfront.IKeyGroup;
  /** The web app's origin, which may read media from a page (CORS); native players need none. */
  allowOrigin: string;
  /**
   * The origin of recorded playlists (functions/live/media-playlist.ts): it answers each with the
   * request's signature carried to the playlist's children, so a plain web player plays them.
   */
  playlists: lambda.IFunctionUrl;
}

/**
 * `{cdn_url}`: a CloudFront distribution in front of the recordings bucket, which it reads through
 * origin access control (the bucket stays private; only this distribution may read it). It serves
 * recorded broadcasts as on-demand media and their thumbnails. Live playback is not here: IVS
 * playback URLs cannot be proxied or put behind our own domain (docs/live.md).
 *
 * Everything IVS records (`ivs/…`) requires a CloudFront signed URL or signed cookies from the
 * trusted key group (shared/playback/media-signing.ts: the API signs it for the viewers it
 * entitles), but thumbnails, which stay public so a locked item shows its picture. Its playlists
 * (`ivs/*.m3u8`) come from the playlist function, through a function URL only this distribution
 * may call (origin access control, IAM auth), after CloudFront has checked the signature: each is
 * answered with the signature's query appended to its relative URIs (docs/live.md), so the
 * signature reaches every rendition and segment without a player's help.
 */
export class MediaCdn extends Construct {
  readonly distribution: cloudfront.Distribution;

  constructor(scope: Construct, id: string, props: MediaCdnProps) {
    super(scope, id);
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

    const origin = origins.S3BucketOrigin.withOriginAccessControl(props.recordings);
    // Playlists change while a broadcast is recorded: IVS appends to a recording's rendition
    // playlists as it writes them (the DVR plays them: shared/channels/recordings.ts `dvrUrlOf`) and
    // turns them VOD at the end. Cached for a second or two, so viewers at an edge share one
    // origin read per reload and neither the DVR nor the finished recording is served stale.
    const playlists = new cloudfront.CachePolicy(this, 'Playlists', {
      comment: 'HLS playlists of recordings: they grow while the broadcast is recorded',
      minTtl: Duration.seconds(0),
      defaultTtl: Duration.seconds(1),
      maxTtl: Duration.seconds(2),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });
    // A signed playlist's body carries its signature, so the signature is in its cache key (and so
    // forwarded to the playlist function). Every viewer signed within the same hour has the same
    // one (shared/playback/media-signing.ts), so viewers still share the edge's copy.
    const signedPlaylists = new cloudfront.CachePolicy(this, 'SignedPlaylists', {
      comment: 'Recorded HLS playlists: keyed by the signature their children carry',
      minTtl: Duration.seconds(0),
      defaultTtl: Duration.seconds(1),
      maxTtl: Duration.seconds(2),
      queryStringBehavior: cloudfront.CacheQueryStringBehavior.allowList(
        'Policy',
        'Signature',
        'Key-Pair-Id',
        'Hash-Algorithm',
        'Expires',
      ),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });
    const playlistOrigin = new SignedFunctionUrlOrigin(
      props.playlists,
      new cloudfront.FunctionUrlOriginAccessControl(this, 'PlaylistsAccessControl'),
    );

    const cors = new cloudfront.ResponseHeadersPolicy(this, 'Cors', {
      comment: 'The web app may play recorded media from its pages',
      corsBehavior: {
        accessControlAllowOrigins: [props.allowOrigin],
        accessControlAllowMethods: ['GET', 'HEAD'],
        accessControlAllowHeaders: ['*'],
        accessControlAllowCredentials: false,
        accessControlMaxAge: Duration.hours(1),
        originOverride: true,
      },
    });
    const signed = {
      origin,
      responseHeadersPolicy: cors,
      viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      trustedKeyGroups: [props.keyGroup],
    };
    const thumbnails = {
      origin,
      responseHeadersPolicy: cors,
      viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
    };
    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: 'Recorded broadcasts and thumbnails ({cdn_url}); S3 through origin access control',
      defaultBehavior: {
        origin,
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        // Nothing but recordings is in the bucket today: the default only answers (403) for the rest.
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        trustedKeyGroups: [props.keyGroup],
      },
      // In order, first match wins: thumbnails public, playlists and then segments signed.
      additionalBehaviors: {
        'ivs/*/media/thumbnails/*': thumbnails,
        'ivs/*/media/latest_thumbnail/*': { ...thumbnails, cachePolicy: playlists },
        'ivs/*.m3u8': { ...signed, origin: playlistOrigin, cachePolicy: signedPlaylists },
        // Segments never change once written.
        'ivs/*': { ...signed, cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED },
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
        reason: 'No territory licensing in this service: access to premium media is decided per item.',
      },
      {
        id: 'AwsSolutions-CFR2',
        reason:
          'A CloudFront-scope WAF web ACL can only be created in us-east-1 and this stack is region-agnostic; the origin is a private bucket readable only through this distribution.',
      },
      {
        id: 'AwsSolutions-CFR4',
        reason:
          'No custom domain yet: the default *.cloudfront.net certificate has a security policy CloudFront fixes; TLSv1.2_2021 comes with the custom domain and its ACM certificate (docs/live.md).',
      },
    );
  }
}
