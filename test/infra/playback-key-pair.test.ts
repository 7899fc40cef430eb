import { createPrivateKey, createPublicKey } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { IvsClient, ListPlaybackKeyPairsCommand } from '@aws-sdk/client-ivs';
import { GetSecretValueCommand, type PutSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Clients,
  type CustomResourceEvent,
  apply,
  applyMedia,
  respond,
} from '../../infra/handlers/playback-key-pair.ts';
import { type IvsStandIn, startIvsStandIn } from '../../scripts/local/ivs/api.ts';
import { localIvsClientConfig } from '../local-ivs/playback-token.ts';

/**
 * The playback key pair custom resource against the IVS stand-in (the real @aws-sdk/client-ivs
 * calls): Create imports a P-384 public key and writes the matching private key to the secret,
 * Delete removes the key pair, a failed secret write gives the IVS slot back, and CloudFormation
 * gets its response by PUT with no key material in it.
 */
let ivs: IvsStandIn;
let client: IvsClient;
const written: Array<{ SecretId?: string; SecretString?: string }> = [];
let failWrite = false;
const clients = (): Clients => ({
  ivs: client,
  secrets: {
    send: (async (command: PutSecretValueCommand | GetSecretValueCommand) => {
      if (command instanceof GetSecretValueCommand) {
        const stored = written.findLast((w) => w.SecretId === command.input.SecretId);
        return { SecretString: stored?.SecretString };
      }
      if (failWrite) throw Object.assign(new Error('denied'), { name: 'AccessDeniedException' });
      written.push(command.input);
      return {};
    }) as never,
  },
});
const event = (type: CustomResourceEvent['RequestType'], physical?: string): CustomResourceEvent => ({
  RequestType: type,
  ResponseURL: 'http://127.0.0.1:1/unused',
  StackId: 'arn:aws:cloudformation:us-east-1:000000000000:stack/Api/1',
  RequestId: 'req-1',
  LogicalResourceId: 'PlaybackKeysKeyPair1',
  ...(physical ? { PhysicalResourceId: physical } : {}),
  ResourceProperties: {
    Name: 'Api-2026-11',
    SecretArn: 'arn:aws:secretsmanager:us-east-1:0:secret:k-AbCdEf',
  },
});
const keyPairs = async () => (await client.send(new ListPlaybackKeyPairsCommand({}))).keyPairs ?? [];

beforeAll(async () => {
  ivs = await startIvsStandIn({ throttle: false });
  client = new IvsClient({ ...localIvsClientConfig(ivs.endpoint), maxAttempts: 1 });
});
afterAll(async () => {
  client.destroy();
  await ivs.stop();
});

describe('Custom::IvsPlaybackKeyPair', () => {
  it('creates a key pair whose private half goes only to the secret, and deletes it', async () => {
    const arn = await apply(clients(), event('Create'));
    expect(arn).toMatch(/^arn:aws:ivs:us-east-1:\d{12}:playback-key\//);
    expect(await keyPairs()).toEqual([expect.objectContaining({ arn, name: 'Api-2026-11' })]);
    expect(written).toHaveLength(1);
    expect(written[0]!.SecretId).toBe(event('Create').ResourceProperties.SecretArn);
    // The secret's key is the private half of the imported public key.
    const publicPem = createPublicKey(createPrivateKey(written[0]!.SecretString!))
      .export({ type: 'spki', format: 'pem' })
      .toString();
    expect(
      [...ivs.state.playbackKeyPairs.values()][0]!.publicKey.export({ type: 'spki', format: 'pem' }),
    ).toBe(publicPem);
    expect(createPrivateKey(written[0]!.SecretString!).asymmetricKeyDetails?.namedCurve).toBe('secp384r1');
    // An update keeps the generation's key; a delete removes it, and a second delete is fine.
    expect(await apply(clients(), event('Update', arn))).toBe(arn);
    expect(await keyPairs()).toHaveLength(1);
    await apply(clients(), event('Delete', arn));
    expect(await keyPairs()).toEqual([]);
    await apply(clients(), event('Delete', arn));
    await apply(clients(), event('Delete', 'failed-req-0'));
  });

  it('gives the IVS key slot back when the secret cannot be written', async () => {
    failWrite = true;
    try {
      await expect(apply(clients(), event('Create'))).rejects.toThrow('denied');
    } finally {
      failWrite = false;
    }
    expect(await keyPairs()).toEqual([]);
  });

  it('answers CloudFormation with a PUT that carries the physical id and no key material', async () => {
    const bodies: string[] = [];
    const server: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        expect(req.method).toBe('PUT');
        bodies.push(body);
        res.end();
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/response`;
    try {
      await respond({ ...event('Create'), ResponseURL: url }, { physicalId: 'arn:aws:ivs:x' });
      await respond({ ...event('Create'), ResponseURL: url }, { physicalId: 'failed-req-1', error: 'E: no' });
    } finally {
      server.close();
    }
    expect(bodies.map((b) => JSON.parse(b))).toEqual([
      expect.objectContaining({ Status: 'SUCCESS', PhysicalResourceId: 'arn:aws:ivs:x', RequestId: 'req-1' }),
      expect.objectContaining({ Status: 'FAILED', Reason: 'E: no', PhysicalResourceId: 'failed-req-1' }),
    ]);
    expect(bodies.join()).not.toContain('PRIVATE KEY');
  });
});

describe('Custom::MediaSigningKeyPair', () => {
  it('writes an RSA-2048 private key only to the secret and answers its public half, the same on update', async () => {
    written.length = 0;
    const media = { ...event('Create'), ResourceType: 'Custom::MediaSigningKeyPair' };
    const created = await applyMedia(clients(), media);
    expect(written).toHaveLength(1);
    const privateKey = createPrivateKey(written[0]!.SecretString!);
    expect(privateKey.asymmetricKeyType).toBe('rsa');
    expect(privateKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    const publicPem = createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString();
    expect(created).toEqual({ physicalId: 'Api-2026-11', data: { PublicKey: publicPem } });
    expect(JSON.stringify(created)).not.toContain('PRIVATE KEY');
    // An update answers the same public key (from the secret) and makes no new key.
    const updated = await applyMedia(clients(), {
      ...media,
      RequestType: 'Update',
      PhysicalResourceId: 'Api-2026-11',
    });
    expect(updated).toEqual(created);
    expect(written).toHaveLength(1);
    expect(
      await applyMedia(clients(), { ...media, RequestType: 'Delete', PhysicalResourceId: 'Api-2026-11' }),
    ).toEqual({
      physicalId: 'Api-2026-11',
    });
  });
});
