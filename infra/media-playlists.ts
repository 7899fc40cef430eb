import { Aws, NestedStack } from 'aws-cdk-lib';
import type * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { mediaPlaylistRow } from '../functions/workers.ts';
import { ApiFunction, type ApiFunctionDefaults, constructIdOf } from './api-function.ts';
import type { Monitoring } from './monitoring.ts';

export interface MediaPlaylistsProps extends ApiFunctionDefaults {
  monitoring: Monitoring;
}

/**
 * The media CDN's origin for recorded playlists (nested stack `MediaPlaylists`; docs/live.md
 * "Recorded media: signed URLs"): the playlist function (functions/workers.ts `mediaPlaylistRow`)
 * behind a function URL with IAM auth, which CloudFront calls through origin access control. Its
 * own stack, apart from every function that names `{cdn_url}`: the distribution names this URL,
 * so nothing here may name the distribution (the function gets no CDN_URL; the invoke permission
 * names the account's distributions, `distribution/*`, not this one's id: that would be a cycle).
 * What a call from another of the account's distributions could get is a playlist's text, never
 * media: the segments still need a signature at this distribution.
 */
export class MediaPlaylists extends NestedStack {
  readonly fn: lambda.Function;
  readonly url: lambda.FunctionUrl;

  constructor(scope: Construct, id: string, props: MediaPlaylistsProps) {
    super(scope, id, {
      description: 'Media CDN: the origin of recorded playlists (signature carried to children)',
    });
    const { monitoring, ...defaults } = props;
    this.fn = new ApiFunction(this, constructIdOf(mediaPlaylistRow.handler), {
      ...defaults,
      row: mediaPlaylistRow,
    }).fn;
    this.url = this.fn.addFunctionUrl({ authType: lambda.FunctionUrlAuthType.AWS_IAM });
    // What FunctionUrlOrigin.withOriginAccessControl adds, but in this stack, for any of the account's distributions.
    const principal = 'cloudfront.amazonaws.com';
    const sourceArn = `arn:${Aws.PARTITION}:cloudfront::${Aws.ACCOUNT_ID}:distribution/*`;
    new lambda.CfnPermission(this, 'InvokeUrlFromCloudFront', {
      principal,
      action: 'lambda:InvokeFunctionUrl',
      functionName: this.fn.functionArn,
      sourceArn,
    });
    new lambda.CfnPermission(this, 'InvokeFromCloudFront', {
      principal,
      action: 'lambda:InvokeFunction',
      functionName: this.fn.functionArn,
      sourceArn,
      invokedViaFunctionUrl: true,
    });
    monitoring.watchFunctions(this, 'MediaPlaylists', [this.fn]);
  }
}

/**
 * The playlist function's URL as a CloudFront origin signed with `accessControl` (SigV4 always):
 * FunctionUrlOrigin.withOriginAccessControl would also add the invoke permissions, in the
 * distribution's stack and naming its id, which MediaPlaylists grants instead.
 */
export class SignedFunctionUrlOrigin extends origins.FunctionUrlOrigin {
  constructor(
    url: lambda.IFunctionUrl,
    private readonly accessControl: cloudfront.IOriginAccessControl,
  ) {
    super(url);
  }

  override bind(scope: Construct, options: cloudfront.OriginBindOptions): cloudfront.OriginBindConfig {
    const config = super.bind(scope, options);
    return {
      ...config,
      originProperty: {
        ...config.originProperty!,
        originAccessControlId: this.accessControl.originAccessControlId,
      },
    };
  }
}
