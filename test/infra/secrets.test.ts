import { afterAll, describe, expect, it } from 'vitest';
import { routes } from '../../functions/routes.ts';
import { KEY_PLACEHOLDER } from '../../infra/playback-edge.ts';
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

  it('writes the key into the edge function code only as a dynamic reference to the playback secret', () => {
    const secretId = Object.keys(template.findResources('AWS::SecretsManager::Secret')).find((id) =>
      id.startsWith('PlaybackTokenSecret'),
    );
    const edge = Object.values(template.findResources('AWS::CloudFront::Function')) as Array<{
      Properties: { FunctionCode: unknown };
    }>;
    expect(edge).toHaveLength(1);
    const code = JSON.stringify(edge[0]!.Properties.FunctionCode);
    expect(code).toContain(
      `const KEY = '{{resolve:secretsmanager:",{"Ref":"${secretId}"},":SecretString:::}}';`,
    );
    expect(code).not.toContain(KEY_PLACEHOLDER);
    expect(code.match(/\{\{resolve:/g)).toHaveLength(1);
  });

  it('contains no key material', () => {
    const text = JSON.stringify(template.toJSON());
    expect(text).not.toMatch(/BEGIN (EC |RSA )?PRIVATE KEY/);
    expect(text).not.toContain('demo-password');
  });
});
