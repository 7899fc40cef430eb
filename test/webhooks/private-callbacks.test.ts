import { describe, expect, it } from 'vitest';
import { applyStartSettings } from '../../scripts/local/start-settings.ts';
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
    expect(callbackPolicy({ STAGE: 'prod', LOCAL_WEBHOOK_CALLBACKS: 'private' }).allowPrivate).toBe(false);
  });
});
