/**
 * CDK entry (`cdk.json`: `npx tsx infra/app.ts`). Context:
 * - `stage` dev|prod (stage settings in infra/stage.ts)
 * - `googleClientId`, `alarmEmail`, `siteUrl`, `playbackKeys`, `mailFrom`, `target`, `devTargets`,
 *   `creatorSecondFactor`: the deploy settings, checked
 *   in infra/settings.ts: prod fails synth naming every one missing; dev uses placeholders
 * The AwsSolutions cdk-nag pack runs on every synth.
 */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { routes } from '../functions/routes.ts';
import { type DeploySettings, resolveSettings, settingsFromContext } from './settings.ts';
import { bundledCode } from './api-function.ts';
import { ApiStack } from './stack.ts';
import { stageOf } from './stage.ts';

const app = new App();
const stage = stageOf(app.node.tryGetContext('stage'));

// The stack checks the settings too; here a missing one ends synth with the message alone.
let settings: DeploySettings;
try {
  settings = resolveSettings(
    stage,
    settingsFromContext((key) => app.node.tryGetContext(key)),
    // Set by the CDK CLI when it has credentials (cdk deploy): where the stack really goes.
    { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  );
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}

new ApiStack(app, `CreatorStreaming-${stage}`, {
  stage,
  routes,
  code: bundledCode,
  ...settings,
  description: `Creator streaming back end (${stage})`,
});

// cdk-nag: synth fails on any AwsSolutions finding not acknowledged (with a reason) in infra/.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));

app.synth();
