import { App, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { afterEach, describe, expect, it } from 'vitest';
import { Analytics } from '../../infra/analytics.ts';

/**
 * Our constructs call no aws-cdk-lib API marked deprecated ("will be removed in the next major
 * release"): with JSII_DEPRECATED=fail aws-cdk-lib throws at such a call instead of printing
 * `[WARNING] ... is deprecated` during synth (the prod synth of 2026-11-30 printed
 * `CfnResource#addDependency`, from the analytics saved queries).
 */
const before = process.env.JSII_DEPRECATED;
afterEach(() => {
  if (before === undefined) delete process.env.JSII_DEPRECATED;
  else process.env.JSII_DEPRECATED = before;
});

describe('no deprecated aws-cdk-lib API in our constructs', () => {
  it('builds the analytics pipeline (Firehose, bucket, Glue, Athena saved queries)', () => {
    process.env.JSII_DEPRECATED = 'fail';
    const stack = new Stack(new App(), 'Deprecations');
    expect(
      () => new Analytics(stack, 'Analytics', { removalPolicy: RemovalPolicy.DESTROY, retentionDays: 90 }),
    ).not.toThrow();
  });
});
