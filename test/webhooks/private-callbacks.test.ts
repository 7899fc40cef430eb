import { describe, expect, it } from 'vitest';
import { routes } from '../../functions/routes.ts';
import { workers } from '../../functions/workers.ts';
import { localDeployment } from '../../scripts/local/aws.ts';
import { applyStartSettings } from '../../scripts/local/start-settings.ts';
import { functionKey as keyOf } from '../../shared/routing/function-row.ts';
import { environmentOf } from '../../shared/platform/access.ts';
import { callbackPolicy } from '../../shared/webhooks/ssrf.ts';

/** Issue 33 item 4: `npm start` does not allow private webhook callbacks unless asked to. */
describe('private webhook callbacks locally', () => {
  it('are refused by default on npm start, and allowed only by LOCAL_WEBHOOK_CALLBACKS=private', () => {
    const env: NodeJS.ProcessEnv = { STAGE: 'local' };
    applyStartSettings(env, 4000);
    expect(env.LOCAL_WEBHOOK_CALLBACKS).toBeUndefined();
    expect(callbackPolicy(env).allowPrivate).toBe(false);
    const asked: NodeJS.ProcessEnv = { STAGE: 'local', LOCAL_WEBHOOK_CALLBACKS: 'private' };
    applyStartSettings(asked, 4000);
    expect(callbackPolicy(asked).allowPrivate).toBe(true);
  });

  it("is a setting no deployed function's environment carries (issue 35: no branch on the stage)", () => {
    const deployment = localDeployment();
    for (const row of [...routes, ...workers]) {
      const env = environmentOf(row, deployment);
      expect(env.LOCAL_WEBHOOK_CALLBACKS, keyOf(row)).toBeUndefined();
      expect(callbackPolicy(env).allowPrivate, keyOf(row)).toBe(false);
    }
  });
});
