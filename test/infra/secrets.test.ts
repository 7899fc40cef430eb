import { afterAll, describe, expect, it } from 'vitest';
import { routes } from '../../functions/routes.ts';
import { cleanUp, synthStack } from './synth.ts';

afterAll(cleanUp);

type Fn = { Properties: { Environment?: { Variables?: Record<string, unknown> } } };

describe('secrets stay out of the template', () => {
  const { template } = synthStack(routes);
  const functions = Object.values(template.findResources('AWS::Lambda::Function')) as Fn[];

  it('gives playback-signing functions the key secret by ARN only, and the right to read that one secret', () => {
    const signers = functions.filter((f) => f.Properties.Environment?.Variables?.PLAYBACK_KEY_SECRET_ARN);
    expect(signers).toHaveLength(routes.filter((r) => r.needs?.includes('playback-signer')).length);
    const secretIds = Object.keys(template.findResources('AWS::SecretsManager::Secret')).filter((id) =>
      id.startsWith('PlaybackKeysSecret'),
    );
    expect(secretIds).toHaveLength(1);
    for (const f of signers) {
      expect(f.Properties.Environment!.Variables!.PLAYBACK_KEY_SECRET_ARN).toEqual({ Ref: secretIds[0] });
      expect(JSON.stringify(f.Properties.Environment!.Variables)).not.toContain('{{resolve:');
    }
  });

  it('makes each key generation with a custom resource that names its secret, never key material', () => {
    const pairs = Object.values(template.findResources('Custom::IvsPlaybackKeyPair')) as Array<{
      Properties: Record<string, unknown>;
    }>;
    expect(pairs).toHaveLength(1);
    expect(Object.keys(pairs[0]!.Properties).sort()).toEqual(['Name', 'SecretArn', 'ServiceToken']);
  });

  it('has no CloudFront function and no secret resolved into any function or code', () => {
    expect(template.findResources('AWS::CloudFront::Function')).toEqual({});
    const text = JSON.stringify(template.toJSON());
    expect(text).not.toContain('{{resolve:secretsmanager');
  });

  it('contains no key material', () => {
    const text = JSON.stringify(template.toJSON());
    expect(text).not.toMatch(/BEGIN (EC |RSA )?PRIVATE KEY/);
    expect(text).not.toContain('demo-password');
  });
});
