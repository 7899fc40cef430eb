/**
 * CDK entry (`cdk.json`: `npx tsx infra/app.ts`). Context:
 * - `stage` dev|prod (stage settings in infra/stage.ts)
 * - `googleClientId` OAuth client id for Google sign-in (default: a placeholder)
 * - `alarmEmail` optional address subscribed to the alarm topic
 * - `streamOriginDomain` the stream packager/origin behind `{cdn_url}` (default: a placeholder)
 * - `bundle` false only in tests (placeholder code instead of esbuild bundles)
 * The AwsSolutions cdk-nag pack runs on every synth.
 */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { routes } from '../functions/routes.ts';
import { ApiStack } from './stack.ts';
import { stageOf } from './stage.ts';

const app = new App();
const stage = stageOf(app.node.tryGetContext('stage'));
const bundle = String(app.node.tryGetContext('bundle') ?? 'true') !== 'false';

new ApiStack(app, `CreatorStreaming-${stage}`, {
  stage,
  routes,
  bundle,
  googleClientId: String(app.node.tryGetContext('googleClientId') ?? 'unset.apps.googleusercontent.com'),
  alarmEmail: app.node.tryGetContext('alarmEmail'),
  streamOriginDomain: app.node.tryGetContext('streamOriginDomain'),
  description: `Creator streaming back end (${stage})`,
});

// cdk-nag: synth fails on any AwsSolutions finding not acknowledged (with a reason) in infra/.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));

app.synth();
