import {
  CreateChannelCommand,
  ImportPlaybackKeyPairCommand,
  IvsClient,
  StartViewerSessionRevocationCommand,
} from '@aws-sdk/client-ivs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IvsStandIn, startIvsStandIn } from '../../scripts/local/ivs/api.ts';
import { type Broadcaster, createBroadcaster } from '../../scripts/local/ivs/broadcaster.ts';
import { segmentFileAt } from '../../scripts/local/ivs/test-pattern.ts';
import { localIvsClientConfig, playbackKeyPair, playbackToken } from './playback-token.ts';

/**
 * The playback origin: a live private channel plays with a valid ES384 token, and every way a
 * token can be wrong is a 403 (on the multivariant playlist and on the URIs it hands out).
 */
let ivs: IvsStandIn;
let client: IvsClient;
let broadcaster: Broadcaster;
let privateUrl: string;
let privateArn: string;
const signer = playbackKeyPair();
const exp = () => Math.floor(Date.now() / 1000) + 300;

beforeAll(async () => {
  ivs = await startIvsStandIn({ throttle: false });
  client = new IvsClient(localIvsClientConfig(ivs.endpoint));
  broadcaster = createBroadcaster({
    state: ivs.state,
    pattern: ivs.pattern,
    sink: () => {},
    recordingsRoot: '/nonexistent',
  });
  await client.send(new ImportPlaybackKeyPairCommand({ publicKeyMaterial: signer.publicKeyPem }));
  const { channel } = await client.send(new CreateChannelCommand({ name: 'private', authorized: true }));
  privateArn = channel!.arn!;
  privateUrl = channel!.playbackUrl!;
  await broadcaster.start(privateArn);
});
afterAll(async () => {
  client.destroy();
  await ivs.stop();
});

const play = (url: string, token?: string, headers: Record<string, string> = {}) =>
  fetch(token ? `${url}?token=${token}` : url, { headers });

describe('a private channel', () => {
  it('plays with a valid token: multivariant, media playlist and segment bytes, each URI keeping the token', async () => {
    const token = playbackToken(signer.privateKey, { 'aws:channel-arn': privateArn, exp: exp() });
    const multivariant = await play(privateUrl, token);
    expect(multivariant.status).toBe(200);
    expect(multivariant.headers.get('content-type')).toBe('application/vnd.apple.mpegurl');
    expect(multivariant.headers.get('access-control-allow-origin')).toBe('*');
    const text = await multivariant.text();
    expect(text).toContain('#EXT-X-STREAM-INF:BANDWIDTH=');
    const mediaUri = text.split('\n').find((line) => line.includes('playlist.m3u8'))!;
    expect(mediaUri).toContain(`?token=${token}`);

    const mediaUrl = new URL(mediaUri, privateUrl);
    const media = await fetch(mediaUrl);
    expect(media.status).toBe(200);
    const playlist = await media.text();
    expect(playlist).toMatch(/#EXT-X-MEDIA-SEQUENCE:\d+/);
    const segmentUri = playlist.split('\n').find((line) => line.includes('.ts'))!;
    expect(segmentUri).toContain(`?token=${token}`);

    const segment = await fetch(new URL(segmentUri, mediaUrl));
    expect(segment.status).toBe(200);
    expect(segment.headers.get('content-type')).toBe('video/MP2T');
    const bytes = Buffer.from(await segment.arrayBuffer());
    expect(bytes[0]).toBe(0x47); // MPEG-TS sync byte
    const sequence = Number(/s(\d+)\.ts/.exec(segmentUri)![1]);
    expect(bytes.equals(readFileSync(join(ivs.pattern.dir, segmentFileAt(ivs.pattern, sequence))))).toBe(
      true,
    );
  });

  it('refuses (403) no token, an expired token, another channel, an unknown key, a bad signature', async () => {
    const { privateKey: strangerKey } = playbackKeyPair();
    const valid = playbackToken(signer.privateKey, { 'aws:channel-arn': privateArn, exp: exp() });
    const tampered = `${valid.slice(0, valid.lastIndexOf('.') + 1)}${Buffer.alloc(96, 1).toString('base64url')}`;
    const cases: Array<[string, string | undefined]> = [
      ['missing playback token', undefined],
      [
        'token expired',
        playbackToken(signer.privateKey, { 'aws:channel-arn': privateArn, exp: exp() - 600 }),
      ],
      [
        'token is for another channel',
        playbackToken(signer.privateKey, {
          'aws:channel-arn': 'arn:aws:ivs:us-east-1:000000000000:channel/someoneElse1',
          exp: exp(),
        }),
      ],
      ['imported playback key', playbackToken(strangerKey, { 'aws:channel-arn': privateArn, exp: exp() })],
      ['imported playback key', tampered],
      ['malformed token', 'not.a.jwt'],
      ['malformed token', playbackToken(signer.privateKey, null as unknown as Record<string, unknown>)],
    ];
    for (const [reason, token] of cases) {
      const response = await play(privateUrl, token);
      expect(response.status, reason).toBe(403);
      expect(((await response.json()) as { reason: string }).reason).toContain(reason);
    }
  });

  it('checks aws:access-control-allow-origin against the Origin header', async () => {
    const token = playbackToken(signer.privateKey, {
      'aws:channel-arn': privateArn,
      'aws:access-control-allow-origin': 'https://watch.example.com',
      exp: exp(),
    });
    const allowed = await play(privateUrl, token, { origin: 'https://watch.example.com' });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://watch.example.com');
    const wrong = await play(privateUrl, token, { origin: 'https://evil.example.net' });
    expect(wrong.status).toBe(403);
  });

  it('takes a list of origins, wildcard hostnames too, and echoes the one that asked (IVS syntax)', async () => {
    const token = playbackToken(signer.privateKey, {
      'aws:channel-arn': privateArn,
      'aws:access-control-allow-origin':
        'https://watch.example.com,http://127.0.0.1:3001,https://*.example.org',
      exp: exp(),
    });
    for (const origin of ['http://127.0.0.1:3001', 'https://app.example.org', 'https://watch.example.com']) {
      const allowed = await play(privateUrl, token, { origin });
      expect(allowed.status, origin).toBe(200);
      expect(allowed.headers.get('access-control-allow-origin'), origin).toBe(origin);
    }
    for (const origin of ['http://127.0.0.1:3002', 'https://example.org', 'http://app.example.org'])
      expect((await play(privateUrl, token, { origin })).status, origin).toBe(403);
  });

  it('refuses a viewer revoked by StartViewerSessionRevocation, up to the revoked session version', async () => {
    const claims = { 'aws:channel-arn': privateArn, 'aws:viewer-id': 'viewer-7', exp: exp() };
    const v1 = playbackToken(signer.privateKey, { ...claims, 'aws:viewer-session-version': 1 });
    const v2 = playbackToken(signer.privateKey, { ...claims, 'aws:viewer-session-version': 2 });
    const other = playbackToken(signer.privateKey, { ...claims, 'aws:viewer-id': 'viewer-8' });
    expect((await play(privateUrl, v1)).status).toBe(200);
    await client.send(
      new StartViewerSessionRevocationCommand({
        channelArn: privateArn,
        viewerId: 'viewer-7',
        viewerSessionVersionsLessThanOrEqualTo: 1,
      }),
    );
    const revoked = await play(privateUrl, v1);
    expect(revoked.status).toBe(403);
    expect(((await revoked.json()) as { reason: string }).reason).toBe('viewer session revoked');
    expect((await play(privateUrl, v2)).status).toBe(200);
    expect((await play(privateUrl, other)).status).toBe(200);
  });
});

describe('a public channel', () => {
  it('plays without a token while live, and is 404 once offline', async () => {
    const { channel } = await client.send(new CreateChannelCommand({ name: 'public' }));
    expect((await play(channel!.playbackUrl!)).status).toBe(404);
    await broadcaster.start(channel!.arn!);
    expect((await play(channel!.playbackUrl!)).status).toBe(200);
    await broadcaster.stop(channel!.arn!);
    expect((await play(channel!.playbackUrl!)).status).toBe(404);
  });
});
