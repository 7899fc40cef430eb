import * as nodeCrypto from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Match } from 'aws-cdk-lib/assertions';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../../functions/routes.ts';
import { workers } from '../../functions/workers.ts';
import { KEY_PLACEHOLDER, PLACEHOLDER_ORIGIN, VERIFY_SOURCE } from '../../infra/playback-edge.ts';
import { streamUrls } from '../../shared/live/stream-views.ts';
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

/** A CloudFront viewer-request event for `uri` (path only, as CloudFront gives it). */
const viewerRequest = (uri: string, querystring: EdgeRequest['querystring'] = {}) => ({
  version: '1.0',
  context: { eventType: 'viewer-request' },
  viewer: { ip: '198.51.100.7' },
  request: { method: 'GET', uri, querystring, headers: {}, cookies: {} },
});

const now = new Date('2026-11-22T20:00:00Z');
const sign = (q: string, str = 'st_1', at = now) =>
  signPlaybackToken({ acc: 'acc_1', sid: 'sess_1', str, q }, at, Buffer.from(KEY, 'utf8')).token;
/** `/live/<creator>/<stream>/t/<token>/<rest>`, the layout shared/live/stream-views.ts builds. */
const tokenPath = (token: string, rest: string, stream = 'st_1', creator = 'cr_1') =>
  `/live/${creator}/${stream}/t/${token}/${rest}`;
/** 403, or the path the request is forwarded to the origin with. */
const forwarded = (uri: string, querystring?: EdgeRequest['querystring']) => {
  const result = handler(viewerRequest(uri, querystring));
  return 'statusCode' in result ? result.statusCode : result.uri;
};

describe('playback token function (infra/edge/verify-playback-token.js)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(now);
  });
  afterEach(() => vi.useRealTimers());

  it('passes a valid token in the path and forwards the origin path without it', () => {
    const event = viewerRequest(tokenPath(sign('720p'), '720p/index.m3u8'));
    const result = handler(event);
    expect(result).toBe(event.request);
    expect(event.request.uri).toBe('/live/cr_1/st_1/720p/index.m3u8');
    const cases: Array<[string, string, string]> = [
      ['720p', 'dvr/720p/index.m3u8', '/live/cr_1/st_1/dvr/720p/index.m3u8'],
      ['720p', '720p/seg_00042.ts', '/live/cr_1/st_1/720p/seg_00042.ts'],
      ['720p', '720p.m3u8', '/live/cr_1/st_1/720p.m3u8'],
      ['auto', 'master.m3u8', '/live/cr_1/st_1/master.m3u8'],
      ['auto', 'dvr/master.m3u8', '/live/cr_1/st_1/dvr/master.m3u8'],
      // An `auto` token plays every rendition of its stream.
      ['auto', '1080p/index.m3u8', '/live/cr_1/st_1/1080p/index.m3u8'],
      ['auto', 'dvr/360p/seg_1.ts', '/live/cr_1/st_1/dvr/360p/seg_1.ts'],
    ];
    for (const [q, rest, origin] of cases) expect(forwarded(tokenPath(sign(q), rest)), rest).toBe(origin);
  });

  it('plays what streamUrls builds, and the renditions and segments players resolve from it', () => {
    const creator = {
      id: 'cr_1',
      live: { stream_id: 'st_1', title: 'Live', started_at: now.toISOString(), thumbnail_url: '' },
    };
    const key = Buffer.from(KEY, 'utf8');
    const tokenFor = (q: string) =>
      signPlaybackToken({ acc: 'acc_1', sid: 'sess_1', str: 'st_1', q }, now, key).token;
    const path = (url: URL | string) => new URL(url).pathname;
    const auto = streamUrls(creator, 'auto', tokenFor('auto'));
    const sd = streamUrls(creator, '480p', tokenFor('480p'));
    for (const url of [auto.stream_url, auto.dvr_url, sd.stream_url, sd.dvr_url]) {
      expect(new URL(url).search, url).toBe('');
      expect(forwarded(path(url)), url).toBe(path(url).replace(/\/t\/[^/]+\//, '/'));
    }
    // Master playlist → rendition playlist → segment, each relative to the one before.
    const rendition = new URL('720p/index.m3u8', auto.stream_url);
    const segment = new URL('seg_00001.ts', rendition);
    expect(forwarded(path(rendition))).toBe('/live/cr_1/st_1/720p/index.m3u8');
    expect(forwarded(path(segment))).toBe('/live/cr_1/st_1/720p/seg_00001.ts');
    expect(forwarded(path(new URL('seg_00001.ts', sd.dvr_url)))).toBe(
      '/live/cr_1/st_1/dvr/480p/seg_00001.ts',
    );
    // The rendition the token is bound to is the only one it reaches.
    expect(forwarded(path(new URL('../720p/seg_00001.ts', sd.stream_url)))).toBe(403);
    // Tokenless URLs (summaries, metadata, home) are references: refused.
    const reference = streamUrls(creator, 'auto');
    expect(reference.stream_url).toBe(auto.stream_url.replace(/\/t\/[^/]+\//, '/'));
    expect(forwarded(path(reference.stream_url))).toBe(403);
    expect(forwarded(path(new URL('720p/seg_00001.ts', reference.stream_url)))).toBe(403);
  });

  it('answers 403 for missing, malformed, tampered, expired, rebound and moved tokens', () => {
    const valid = sign('720p');
    const [payload, mac] = valid.split('.') as [string, string];
    const forged = Buffer.from(
      JSON.stringify({ v: 1, acc: 'acc_1', sid: 'sess_1', str: 'st_1', q: 'auto', exp: 9e9 }),
    );
    const junk = Buffer.from('not json').toString('base64url');
    const junkMac = nodeCrypto.createHmac('sha256', KEY).update(junk).digest('base64url');
    const cases: Array<[string, string]> = [
      ['missing', '/live/cr_1/st_1/720p/index.m3u8'],
      ['missing (segment)', '/live/cr_1/st_1/720p/seg_1.ts'],
      ['empty', '/live/cr_1/st_1/t//720p/index.m3u8'],
      ['no t/ marker', `/live/cr_1/st_1/${valid}/720p/index.m3u8`],
      ['malformed: no signature', tokenPath(payload, '720p/index.m3u8')],
      ['malformed: three parts', tokenPath(`${valid}.x`, '720p/index.m3u8')],
      ['malformed: signed junk', tokenPath(`${junk}.${junkMac}`, '720p/index.m3u8')],
      ['tampered claims', tokenPath(`${forged.toString('base64url')}.${mac}`, '1080p/index.m3u8')],
      ['tampered signature', tokenPath(`${payload}.${mac.slice(0, -2)}AA`, '720p/index.m3u8')],
      [
        'other key',
        tokenPath(
          signPlaybackToken({ acc: 'a', sid: 's', str: 'st_1', q: '720p' }, now, nodeCrypto.randomBytes(32))
            .token,
          '720p/index.m3u8',
        ),
      ],
      ['expired', tokenPath(sign('720p', 'st_1', new Date(now.getTime() - 5 * 60_000)), '720p/index.m3u8')],
      ['moved to another stream', tokenPath(valid, '720p/index.m3u8', 'st_2', 'cr_2')],
      ['moved to another stream, same creator', tokenPath(valid, '720p/seg_1.ts', 'st_2')],
      ['rebound quality', tokenPath(valid, '1080p/index.m3u8')],
      ['rebound quality (master is auto)', tokenPath(valid, 'master.m3u8')],
      ['rebound quality (segment)', tokenPath(valid, '1080p/seg_1.ts')],
      ['rebound quality (dvr)', tokenPath(valid, 'dvr/1080p/seg_1.ts')],
      ['token after the rendition', `/live/cr_1/st_1/720p/t/${valid}/index.m3u8`],
      ['dot segments', tokenPath(valid, '720p/../../../st_2/t/x.y/720p/index.m3u8')],
      ['deeper than a segment', tokenPath(valid, '720p/a/seg_1.ts')],
      ['home-feed layout /live/<stream>/index.m3u8', '/live/st_1/index.m3u8'],
    ];
    for (const [name, uri] of cases) expect(forwarded(uri), name).toBe(403);
    // The old query-string form no longer passes.
    const query = { token: { value: encodeURIComponent(valid) } };
    expect(forwarded('/live/cr_1/st_1/720p/index.m3u8', query)).toBe(403);
    expect(forwarded('/live/cr_1/st_1/720p.m3u8', query)).toBe(403);
  });

  it('expires exactly at exp, like shared/playback/playback-token.ts', () => {
    const uri = tokenPath(sign('720p'), '720p/index.m3u8');
    vi.setSystemTime(now.getTime() + 5 * 60_000 - 1);
    expect(forwarded(uri)).toBe('/live/cr_1/st_1/720p/index.m3u8');
    vi.setSystemTime(now.getTime() + 5 * 60_000);
    expect(forwarded(uri)).toBe(403);
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
          const module = verifyPlaybackToken(
            token,
            { stream, quality },
            new Date(),
            Buffer.from(KEY, 'utf8'),
          );
          const rest = quality === 'auto' ? 'master.m3u8' : `${quality}/seg_1.ts`;
          const edge = forwarded(tokenPath(token, rest, stream));
          expect(edge, `${stream} ${quality}`).toBe(module.ok ? `/live/cr_1/${stream}/${rest}` : 403);
        }
      }
    }
  });

  it('judges and forwards the path the origin serves: encoded, doubled-slash, upper-case and dot-segment forms', () => {
    const token = sign('720p');
    const origin = '/live/cr_1/st_1/720p/index.m3u8';
    // Other spellings of a valid path reach the origin as the path that was checked.
    for (const uri of [
      `//live/cr_1/st_1/t/${token}/720p/index.m3u8`,
      `/live/cr_1//st_1/t/${token}//720p/index.m3u8`,
      `/%6Cive/cr_1/st_1/t/${token}/720p/index.m3u8`,
      `/live/cr_1/st_1/%74/${token.replace('.', '%2E')}/720p%2Findex.m3u8`,
    ]) {
      expect(forwarded(uri), uri).toBe(origin);
    }
    for (const uri of [
      `/LIVE/cr_1/st_1/t/${token}/720p/index.m3u8`,
      `/vod/../live/cr_1/st_1/t/${token}/720p/index.m3u8`,
      `/vod/%2E%2E/live/cr_1/st_1/t/${token}/720p/index.m3u8`,
      `/live/cr_1/st_1/t/${token}/720p/%2E%2E/1080p/index.m3u8`,
      `/live/cr_1/st_1/t/${token}/720p/seg%3F.ts`,
      `/live/cr_1/st_1/t/${token}/720p/seg%00.ts`,
      '/live/cr_1/%E0%A4%A.jpg',
    ]) {
      expect(forwarded(uri), uri).toBe(403);
    }
  });

  it('leaves channel stills and non-live paths alone', () => {
    expect(forwarded('/live/cr_1/thumb.jpg')).toBe('/live/cr_1/thumb.jpg');
    expect(forwarded('/live/cr_1/offline.jpg')).toBe('/live/cr_1/offline.jpg');
    expect(forwarded('/vod/ep_1/master.m3u8')).toBe('/vod/ep_1/master.m3u8');
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
    // No query string in the cache key, and the function strips the path token before it is
    // computed: every viewer shares the cached playlists and segments.
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
    // Every row's function (the workers too: their environment is derived the same way).
    expect(cdnUrls.filter((url) => url?.includes('DomainName'))).toHaveLength(routes.length + workers.length);
    template.hasOutput('PlaybackCdnDomain', {});
  });

  it('falls back to the placeholder origin without streamOriginDomain', () => {
    const { template: unset } = synthStack(routes);
    expect(JSON.stringify(unset.findResources('AWS::CloudFront::Distribution'))).toContain(
      PLACEHOLDER_ORIGIN,
    );
  });
});
