import * as nodeCrypto from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Match } from 'aws-cdk-lib/assertions';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../../functions/routes.ts';
import { KEY_PLACEHOLDER, PLACEHOLDER_ORIGIN, VERIFY_SOURCE } from '../../infra/playback-edge.ts';
import { signPlaybackToken, verifyPlaybackToken } from '../../shared/playback/playback-token.ts';
import { cleanUp, synthStack } from './synth.ts';

afterAll(cleanUp);

type EdgeRequest = { uri: string; querystring: Record<string, { value: string }> };
type EdgeResult = EdgeRequest | { statusCode: number };

// Like the generated secret: 64 letters and digits.
const KEY = nodeCrypto
  .randomBytes(48)
  .toString('base64')
  .replace(/[^A-Za-z0-9]/g, 'x')
  .slice(0, 64);
const source = readFileSync(VERIFY_SOURCE, 'utf8');

/** The function file as deployed, with node's crypto standing in for CloudFront's. */
const handler = new Function('require', `${source.replace(KEY_PLACEHOLDER, KEY)}\nreturn handler;`)(
  (name: string) => {
    if (name !== 'crypto') throw new Error(`CloudFront Functions have no module ${name}`);
    return nodeCrypto;
  },
) as (event: unknown) => EdgeResult;

/** A CloudFront viewer-request event for `uri` with an optional `?token=`. */
const viewerRequest = (uri: string, token?: string) => ({
  version: '1.0',
  context: { eventType: 'viewer-request' },
  viewer: { ip: '198.51.100.7' },
  request: {
    method: 'GET',
    uri,
    querystring: token === undefined ? {} : { token: { value: encodeURIComponent(token) } },
    headers: {},
    cookies: {},
  },
});

const now = new Date('2026-11-22T20:00:00Z');
const sign = (q: string, str = 'st_1', at = now) =>
  signPlaybackToken({ acc: 'acc_1', sid: 'sess_1', str, q }, at, Buffer.from(KEY, 'utf8')).token;
const statusOf = (uri: string, token?: string) => {
  const result = handler(viewerRequest(uri, token));
  return 'statusCode' in result ? result.statusCode : 'passed';
};

describe('playback token function (infra/edge/verify-playback-token.js)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(now);
  });
  afterEach(() => vi.useRealTimers());

  it('passes valid tokens through, request unchanged, on every URL the API builds for them', () => {
    const event = viewerRequest('/live/cr_1/st_1/720p.m3u8', sign('720p'));
    expect(handler(event)).toBe(event.request);
    expect(statusOf('/live/cr_1/st_1/dvr/720p.m3u8', sign('720p'))).toBe('passed');
    expect(statusOf('/live/cr_1/st_1/720p/segment_00042.ts', sign('720p'))).toBe('passed');
    expect(statusOf('/live/cr_1/st_1/master.m3u8', sign('auto'))).toBe('passed');
    // An `auto` token plays any rendition of its stream.
    expect(statusOf('/live/cr_1/st_1/1080p.m3u8', sign('auto'))).toBe('passed');
    expect(statusOf('/live/cr_1/st_1/dvr/360p/segment_1.ts', sign('auto'))).toBe('passed');
  });

  it('answers 403 for missing, malformed, tampered, expired and rebound tokens', () => {
    const valid = sign('720p');
    const [payload, mac] = valid.split('.') as [string, string];
    const forged = Buffer.from(
      JSON.stringify({ v: 1, acc: 'acc_1', sid: 'sess_1', str: 'st_1', q: 'auto', exp: 9e9 }),
    );
    const junk = Buffer.from('not json').toString('base64url');
    const junkMac = nodeCrypto.createHmac('sha256', KEY).update(junk).digest('base64url');
    const cases: Array<[string, string, string | undefined]> = [
      ['missing', '/live/cr_1/st_1/720p.m3u8', undefined],
      ['empty', '/live/cr_1/st_1/720p.m3u8', ''],
      ['malformed: no signature', '/live/cr_1/st_1/720p.m3u8', payload],
      ['malformed: three parts', '/live/cr_1/st_1/720p.m3u8', `${valid}.x`],
      ['malformed: signed junk', '/live/cr_1/st_1/720p.m3u8', `${junk}.${junkMac}`],
      ['tampered claims', '/live/cr_1/st_1/1080p.m3u8', `${forged.toString('base64url')}.${mac}`],
      ['tampered signature', '/live/cr_1/st_1/720p.m3u8', `${payload}.${mac.slice(0, -2)}AA`],
      [
        'other key',
        '/live/cr_1/st_1/720p.m3u8',
        signPlaybackToken({ acc: 'a', sid: 's', str: 'st_1', q: '720p' }, now, nodeCrypto.randomBytes(32))
          .token,
      ],
      ['expired', '/live/cr_1/st_1/720p.m3u8', sign('720p', 'st_1', new Date(now.getTime() - 5 * 60_000))],
      ['rebound stream', '/live/cr_2/st_2/720p.m3u8', valid],
      ['rebound quality', '/live/cr_1/st_1/1080p.m3u8', valid],
      ['rebound quality (master is auto)', '/live/cr_1/st_1/master.m3u8', valid],
      ['rebound quality (segment)', '/live/cr_1/st_1/1080p/segment_1.ts', valid],
      ['not a stream path', '/live/cr_1/st_1/720p/../../st_2/720p.m3u8', valid],
      ['home-feed layout /live/<stream>/index.m3u8', '/live/st_1/index.m3u8', valid],
    ];
    for (const [name, uri, token] of cases) expect(statusOf(uri, token), name).toBe(403);
  });

  it('expires exactly at exp, like shared/playback/playback-token.ts', () => {
    const token = sign('720p');
    vi.setSystemTime(now.getTime() + 5 * 60_000 - 1);
    expect(statusOf('/live/cr_1/st_1/720p.m3u8', token)).toBe('passed');
    vi.setSystemTime(now.getTime() + 5 * 60_000);
    expect(statusOf('/live/cr_1/st_1/720p.m3u8', token)).toBe(403);
  });

  it('agrees with verifyPlaybackToken on every token, stream and quality', () => {
    const earlier = new Date(now.getTime() - 4 * 60_000);
    const tokens = ['auto', '720p', '1080p'].flatMap((q) => [
      sign(q),
      sign(q, 'st_2'),
      sign(q, 'st_1', earlier),
    ]);
    vi.setSystemTime(now.getTime() + 90_000);
    for (const token of tokens) {
      for (const stream of ['st_1', 'st_2']) {
        for (const quality of ['auto', '720p', '1080p']) {
          const rendition = quality === 'auto' ? 'master' : quality;
          const module = verifyPlaybackToken(
            token,
            { stream, quality },
            new Date(),
            Buffer.from(KEY, 'utf8'),
          );
          const edge = statusOf(`/live/cr_1/${stream}/${rendition}.m3u8`, token);
          expect(edge, `${stream} ${quality}`).toBe(module.ok ? 'passed' : 403);
        }
      }
    }
  });

  it('judges the path the origin serves: encoded, doubled-slash, upper-case and dot-segment forms', () => {
    for (const uri of [
      '//live/cr_1/st_1/720p.m3u8',
      '/%6Cive/cr_1/st_1/720p.m3u8',
      '/LIVE/cr_1/st_1/720p.m3u8',
      '/vod/../live/cr_1/st_1/720p.m3u8',
      '/vod/%2E%2E/live/cr_1/st_1/720p.m3u8',
      '/live/cr_1/%E0%A4%A.jpg',
    ]) {
      expect(statusOf(uri), uri).toBe(403);
    }
    expect(statusOf('/live/cr_1//st_1/720p.m3u8', sign('720p'))).toBe('passed');
  });

  it('leaves channel stills and non-live paths alone', () => {
    expect(statusOf('/live/cr_1/thumb.jpg')).toBe('passed');
    expect(statusOf('/live/cr_1/offline.jpg')).toBe('passed');
    expect(statusOf('/vod/ep_1/master.m3u8')).toBe('passed');
  });

  it('fits the CloudFront Functions 10 KB code limit with a 64-character key', () => {
    expect(Buffer.byteLength(source.replace(KEY_PLACEHOLDER, KEY))).toBeLessThan(10_240);
  });
});

describe('playback edge in the stack', () => {
  const { template } = synthStack(routes, { streamOriginDomain: 'packager.example.net' });
  const [fn] = Object.values(template.findResources('AWS::CloudFront::Function')) as Array<{
    Properties: { FunctionCode: unknown; FunctionConfig: { Runtime: string } };
  }>;

  it('runs the cloudfront-js-2.0 function with the key as a deploy-time dynamic reference', () => {
    template.resourceCountIs('AWS::CloudFront::Function', 1);
    expect(fn!.Properties.FunctionConfig.Runtime).toBe('cloudfront-js-2.0');
    const code = JSON.stringify(fn!.Properties.FunctionCode);
    expect(code).toContain('{{resolve:secretsmanager:');
    expect(code).not.toContain(KEY_PLACEHOLDER);
    expect(code).toContain('function handler(event)');
  });

  it('associates it as viewer-request on the distribution in front of the configured origin', () => {
    template.resourceCountIs('AWS::CloudFront::Distribution', 1);
    template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        Origins: [Match.objectLike({ DomainName: 'packager.example.net' })],
        DefaultCacheBehavior: Match.objectLike({
          ViewerProtocolPolicy: 'redirect-to-https',
          FunctionAssociations: [
            { EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [Match.anyValue(), 'FunctionARN'] } },
          ],
        }),
        Logging: Match.objectLike({ Prefix: 'cdn/' }),
      }),
    });
    // The token is not part of the cache key: every viewer shares the cached segments.
    template.hasResourceProperties('AWS::CloudFront::CachePolicy', {
      CachePolicyConfig: Match.objectLike({
        ParametersInCacheKeyAndForwardedToOrigin: Match.objectLike({
          QueryStringsConfig: { QueryStringBehavior: 'none' },
        }),
      }),
    });
  });

  it('points the API at the distribution ({cdn_url}) and outputs its domain', () => {
    const fns = Object.values(template.findResources('AWS::Lambda::Function')) as Array<{
      Properties: { Environment?: { Variables?: Record<string, unknown> } };
    }>;
    const cdnUrls = fns.map((f) => JSON.stringify(f.Properties.Environment?.Variables?.CDN_URL));
    expect(cdnUrls.filter((url) => url?.includes('DomainName'))).toHaveLength(routes.length);
    template.hasOutput('PlaybackCdnDomain', {});
  });

  it('falls back to the placeholder origin without streamOriginDomain', () => {
    const { template: unset } = synthStack(routes);
    expect(JSON.stringify(unset.findResources('AWS::CloudFront::Distribution'))).toContain(
      PLACEHOLDER_ORIGIN,
    );
  });
});
