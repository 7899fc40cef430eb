import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KMSClient } from '@aws-sdk/client-kms';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apply, type CustomResourceEvent, respond } from '../../infra/handlers/signing-public-key.ts';
import { jwkOf, parseSigningJwk } from '../../shared/identity/signing-jwk.ts';

/**
 * `Custom::SigningPublicKey` against a KMS stand-in that speaks KMS's JSON protocol, so the real
 * @aws-sdk/client-kms decodes the DER public key as on AWS: Create and Update answer the key's
 * public JWK (the one `jwkOf` makes, which verifying functions read back), Delete calls nothing,
 * and CloudFormation gets the JWK as the `Jwk` attribute by PUT.
 */
const KEY_ID = '1234abcd-12ab-34cd-56ef-1234567890ab';
let key: KeyObject = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey;
const requests: Array<{ target?: string; body: Record<string, unknown> }> = [];
const responses: string[] = [];
let kms: Server;
let cloudFormation: Server;
let client: KMSClient;
let responseUrl: string;

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};
const der = () => key.export({ type: 'spki', format: 'der' });
const event = (type: CustomResourceEvent['RequestType'], physical?: string): CustomResourceEvent => ({
  RequestType: type,
  ResourceType: 'Custom::SigningPublicKey',
  ResponseURL: responseUrl,
  StackId: 'arn:aws:cloudformation:us-east-1:000000000000:stack/Api/1',
  RequestId: 'req-1',
  LogicalResourceId: 'SigningPublicKey',
  ...(physical ? { PhysicalResourceId: physical } : {}),
  ResourceProperties: { KeyId: KEY_ID },
});

beforeAll(async () => {
  kms = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const target = request.headers['x-amz-target'] as string | undefined;
      requests.push({ target, body: JSON.parse(body) });
      response.setHeader('content-type', 'application/x-amz-json-1.1');
      response.end(
        JSON.stringify({
          KeyId: `arn:aws:kms:us-east-1:000000000000:key/${KEY_ID}`,
          KeySpec: 'ECC_NIST_P256',
          KeyUsage: 'SIGN_VERIFY',
          SigningAlgorithms: ['ECDSA_SHA_256'],
          PublicKey: der().toString('base64'),
        }),
      );
    });
  });
  cloudFormation = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      responses.push(body);
      response.end();
    });
  });
  client = new KMSClient({
    endpoint: await listen(kms),
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    maxAttempts: 1,
  });
  responseUrl = `${await listen(cloudFormation)}/response`;
});
beforeEach(() => {
  requests.length = 0;
  responses.length = 0;
  key = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey;
});
afterAll(async () => {
  client.destroy();
  await Promise.all([kms, cloudFormation].map((s) => new Promise((resolve) => s.close(resolve))));
});

describe('Custom::SigningPublicKey', () => {
  it("answers the key's public JWK on Create and Update, with the key id as physical id", async () => {
    const expected = JSON.stringify(jwkOf(der(), KEY_ID));
    for (const type of ['Create', 'Update'] as const) {
      const outcome = await apply(client, event(type, type === 'Update' ? KEY_ID : undefined));
      expect(outcome).toEqual({ physicalId: KEY_ID, data: { Jwk: expected } });
    }
    expect(requests).toEqual(Array(2).fill({ target: 'TrentService.GetPublicKey', body: { KeyId: KEY_ID } }));
    // What verifying functions read back: this key, kid = the key id.
    const jwk = parseSigningJwk(expected);
    expect(jwk).toMatchObject({
      kid: KEY_ID,
      x: key.export({ format: 'jwk' }).x,
      y: key.export({ format: 'jwk' }).y,
    });
    // Why not AwsCustomResource: it hands Uint8Array fields back as UTF-8 text, which loses the DER.
    expect(Buffer.from(new TextDecoder().decode(der())).equals(der())).toBe(false);
  });

  it('calls nothing on Delete', async () => {
    expect(await apply(client, event('Delete', KEY_ID))).toEqual({ physicalId: KEY_ID });
    expect(requests).toEqual([]);
  });

  it('fails on a key that is not EC P-256', async () => {
    key = generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey;
    await expect(apply(client, event('Create'))).rejects.toThrow(
      `Signing key ${KEY_ID} is not an EC P-256 key`,
    );
  });

  it('gives CloudFormation the JWK as the Jwk attribute', async () => {
    await respond(event('Create'), await apply(client, event('Create')));
    expect(responses.map((body) => JSON.parse(body))).toEqual([
      {
        Data: { Jwk: JSON.stringify(jwkOf(der(), KEY_ID)) },
        Status: 'SUCCESS',
        Reason: 'OK',
        PhysicalResourceId: KEY_ID,
        StackId: event('Create').StackId,
        RequestId: 'req-1',
        LogicalResourceId: 'SigningPublicKey',
      },
    ]);
  });
});
