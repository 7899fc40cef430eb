import { afterAll, describe, expect, it } from 'vitest';
import { routes } from '../../functions/routes.ts';
import { cleanUp, synthStack } from './synth.ts';

afterAll(cleanUp);

describe('secrets stay out of the template', () => {
  const { template } = synthStack(routes);
  const functions = Object.values(template.findResources('AWS::Lambda::Function')) as Array<{
    Properties: { Environment?: { Variables?: Record<string, unknown> } };
  }>;

  it('gives playback-signing functions the secret as a deploy-time dynamic reference only', () => {
    const withSecret = functions.filter(
      (f) => f.Properties.Environment?.Variables?.PLAYBACK_TOKEN_SECRET !== undefined,
    );
    expect(withSecret).toHaveLength(routes.filter((r) => r.needs?.includes('playback-signer')).length);
    for (const f of withSecret) {
      expect(JSON.stringify(f.Properties.Environment!.Variables!.PLAYBACK_TOKEN_SECRET)).toContain(
        '{{resolve:secretsmanager:',
      );
    }
    template.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: { PasswordLength: 64, ExcludePunctuation: true },
    });
  });

  it('contains no key material', () => {
    const text = JSON.stringify(template.toJSON());
    expect(text).not.toMatch(/BEGIN (EC |RSA )?PRIVATE KEY/);
    expect(text).not.toContain('demo-password');
  });
});
