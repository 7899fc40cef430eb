import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validations } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { AwsSolutionsChecks } from 'cdk-nag';
import { afterAll, describe, expect, it } from 'vitest';
import { routes } from '../../functions/routes.ts';
import { ApiStack } from '../../infra/stack.ts';
import { cleanUp, newApp, PROD_SETTINGS, placeholderCode, SYNTH_TIMEOUT } from './synth.ts';

afterAll(cleanUp);

/** Synthesizes with cdk-nag's AwsSolutions pack; returns the unacknowledged findings. */
const findings = (stage: 'dev' | 'prod', extra?: (stack: ApiStack) => void) => {
  const { app, outdir } = newApp();
  const stack = new ApiStack(app, 'Nag', { stage, routes, code: placeholderCode, ...PROD_SETTINGS });
  extra?.(stack);
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  let failed = false;
  try {
    app.synth();
  } catch {
    failed = true;
  }
  const report = JSON.parse(readFileSync(join(outdir, 'validation-report.json'), 'utf8'));
  const violations = report.pluginReports.flatMap((plugin: any) =>
    plugin.violations.flatMap((v: any) =>
      v.violatingConstructs.map((c: any) => `${v.ruleName} ${c.constructPath}`),
    ),
  );
  return { failed, violations };
};

describe('cdk-nag AwsSolutions checks', () => {
  for (const stage of ['dev', 'prod'] as const) {
    it(
      `has no unacknowledged finding in ${stage}`,
      () => {
        const { failed, violations } = findings(stage);
        expect(violations).toEqual([]);
        expect(failed).toBe(false);
      },
      SYNTH_TIMEOUT,
    );
  }

  /**
   * ONE prod synthesis with two unreviewed tables, one in the stack and one in a route stack, for
   * the two liveness checks below (each whole-stack synthesis with the checks costs 5-6 s alone).
   */
  let unreviewed: { failed: boolean; violations: string[]; nestedPath: string } | undefined;
  const withUnreviewed = () => {
    if (unreviewed) return unreviewed;
    let nestedPath = '';
    const { failed, violations } = findings('prod', (stack) => {
      new dynamodb.Table(stack, 'Unreviewed', {
        partitionKey: { name: 'id', type: dynamodb.AttributeType.STRING },
      });
      nestedPath = new dynamodb.Table(stack.routeStacks[0]!, 'Unreviewed', {
        partitionKey: { name: 'id', type: dynamodb.AttributeType.STRING },
      }).node.path;
    });
    unreviewed = { failed, violations, nestedPath };
    return unreviewed;
  };

  it(
    'still reports a finding nobody acknowledged (the check is live)',
    () => {
      const { failed, violations } = withUnreviewed();
      expect(violations).toEqual(
        expect.arrayContaining([expect.stringMatching(/^AwsSolutions-DDB3 Nag\/Unreviewed/)]),
      );
      expect(failed).toBe(true);
    },
    SYNTH_TIMEOUT,
  );

  it(
    'reports a finding inside a route stack (nested stacks are checked too)',
    () => {
      const { failed, violations, nestedPath } = withUnreviewed();
      expect(nestedPath).toMatch(/^Nag\/\w+Routes\/Unreviewed$/);
      expect(violations).toEqual(expect.arrayContaining([`AwsSolutions-DDB3 ${nestedPath}/Resource`]));
      expect(failed).toBe(true);
    },
    SYNTH_TIMEOUT,
  );
});
