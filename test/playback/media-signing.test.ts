import { describe, expect, it } from 'vitest';
import { localMediaKey } from '../../scripts/local/local-key.ts';
import { getSignedUrl } from '@aws-sdk/cloudfront-signer';
import {
  MEDIA_SIGNATURE_MIN_SECONDS,
  mediaPolicy,
  mediaSigner,
  needsSignature,
  signatureExpiry,
} from '../../shared/playback/media-signing.ts';
import { refusal } from '../../scripts/local/media-cdn.ts';

const CDN = process.env.CDN_URL ?? 'https://cdn.example.com';
const DIR = `${CDN}/ivs/v1/000000000000/AbCd/2026/11/24/15/4/rec1/media/hls`;
const MASTER = `${DIR}/master.m3u8`;
const key = () => ({
  keyPairId: localMediaKey().kid,
  privateKey: localMediaKey().privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
});
const at = new Date('2026-11-24T15:20:00Z');

/** The credentials of a signed URL, as CloudFront reads them from its query. */
const credentialsOf = (signed: string) => {
  const q = new URL(signed).searchParams;
  return {
    policy: q.get('Policy') ?? undefined,
    signature: q.get('Signature') ?? undefined,
    keyPairId: q.get('Key-Pair-Id') ?? undefined,
    algorithm: q.get('Hash-Algorithm') ?? undefined,
  };
};
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

describe('which media URLs are signed', () => {
  it('signs what IVS records under {cdn_url}/ivs/, but its thumbnails; nothing elsewhere', () => {
    expect(needsSignature(MASTER, CDN)).toBe(true);
    expect(needsSignature(`${DIR}/720p30/3.ts`, CDN)).toBe(true);
    expect(needsSignature(`${CDN}/ivs/v1/0/AbCd/2026/11/24/15/4/rec1/media/thumbnails/thumb0.jpg`, CDN)).toBe(
      false,
    );
    expect(
      needsSignature(`${CDN}/ivs/v1/0/AbCd/2026/11/24/15/4/rec1/media/latest_thumbnail/thumb.jpg`, CDN),
    ).toBe(false);
    expect(needsSignature(`${CDN}/vod/ep_1/master.m3u8`, CDN)).toBe(false);
    expect(needsSignature('https://elsewhere.example.net/ivs/v1/x.m3u8', CDN)).toBe(false);
  });

  it('keeps a signature valid 3 to 4 hours: to the end of the hour after next', () => {
    const expires = signatureExpiry(at);
    expect(expires).toBe(seconds(new Date('2026-11-24T19:00:00Z')));
    expect(expires - seconds(at)).toBeGreaterThanOrEqual(MEDIA_SIGNATURE_MIN_SECONDS);
    expect(expires - seconds(at)).toBeLessThanOrEqual(MEDIA_SIGNATURE_MIN_SECONDS + 3600);
  });
});

describe('a signed recording, as the media CDN checks it', () => {
  const sign = mediaSigner(key(), () => at);
  const signed = sign(MASTER);

  it('plays the playlist and, with the same query, every rendition and segment under it', () => {
    expect(signed.startsWith(`${MASTER}?`)).toBe(true);
    expect(new URL(signed).searchParams.get('Hash-Algorithm')).toBe('SHA256');
    for (const url of [MASTER, `${DIR}/720p30/playlist.m3u8`, `${DIR}/720p30/12.ts`]) {
      expect(refusal(url, credentialsOf(signed), seconds(at))).toBeUndefined();
    }
  });

  it('does not open another recording, a tampered policy, another key, or after it expires', () => {
    const other = MASTER.replace('/rec1/', '/rec2/');
    expect(refusal(other, credentialsOf(signed), seconds(at))).toBe('resource not covered by the policy');
    const credentials = credentialsOf(signed);
    const tampered = Buffer.from(
      Buffer.from(credentials.policy!.replace(/-/g, '+').replace(/_/g, '=').replace(/~/g, '/'), 'base64')
        .toString()
        .replace('/rec1/', '/'),
    )
      .toString('base64')
      .replace(/\+/g, '-')
      .replace(/=/g, '_')
      .replace(/\//g, '~');
    expect(refusal(other, { ...credentials, policy: tampered }, seconds(at))).toBe('bad signature');
    expect(refusal(MASTER, { ...credentials, keyPairId: 'K-OTHER' }, seconds(at))).toBe('unknown key pair');
    expect(refusal(MASTER, credentials, signatureExpiry(at))).toBe('expired');
    expect(refusal(MASTER, {}, seconds(at))).toBe('missing signature');
  });

  it("gives AWS's own signer's URL, byte for byte (@aws-sdk/cloudfront-signer as the oracle)", () => {
    const policy = mediaPolicy(MASTER, signatureExpiry(at))!;
    expect(signed).toBe(
      getSignedUrl({
        url: MASTER,
        policy,
        keyPairId: key().keyPairId,
        privateKey: key().privateKey,
        algorithm: 'SHA256',
      }),
    );
  });

  it('signs an item once an hour: the same URL within the hour, a new one after', () => {
    let now = at;
    const signer = mediaSigner(key(), () => now);
    const first = signer(MASTER);
    now = new Date('2026-11-24T15:59:59Z');
    expect(signer(MASTER)).toBe(first);
    now = new Date('2026-11-24T16:00:00Z');
    expect(signer(MASTER)).not.toBe(first);
  });

  it('leaves unsigned media (thumbnails, other hosts) as they are', () => {
    const thumb = `${CDN}/ivs/v1/0/AbCd/2026/11/24/15/4/rec1/media/thumbnails/thumb0.jpg`;
    expect(sign(thumb)).toBe(thumb);
    expect(sign('https://cdn.example.org/vod/x.m3u8')).toBe('https://cdn.example.org/vod/x.m3u8');
  });

  it('signs only one recording of IVS layout, never a directory a URL chose (issue 33, https media CDN)', () => {
    expect(CDN.startsWith('https://')).toBe(true); // the deployment's shape: an https media CDN
    for (const chosen of [
      `${CDN}/ivs/x.m3u8`,
      `${CDN}/ivs/v1/x.m3u8`,
      `${CDN}/ivs/v1/000000000000/AbCd/x.m3u8`,
    ]) {
      expect(sign(chosen)).toBe(chosen);
      expect(refusal(`${DIR}/720p30/1.ts`, credentialsOf(sign(chosen)), seconds(at))).toBe(
        'missing signature',
      );
    }
    const policy = JSON.parse(mediaPolicy(`${DIR}/720p30/playlist.m3u8`, signatureExpiry(at))!);
    expect(policy.Statement[0].Resource).toBe(`${DIR}/*`);
  });
});

describe("npm start's media CDN, whose URL has a path (`http://127.0.0.1:3001/cdn`)", () => {
  it('signs a recording there, for its whole HLS prefix (the README walk-through once got it unsigned: 403)', () => {
    const previous = process.env.CDN_URL;
    process.env.CDN_URL = 'http://127.0.0.1:3001/cdn';
    try {
      const dir = 'http://127.0.0.1:3001/cdn/ivs/v1/000000000000/AbCd/2026/11/24/15/4/rec1/media/hls';
      const signed = mediaSigner(key(), () => at)(`${dir}/master.m3u8`);
      expect(signed).toMatch(/\?Policy=/);
      expect(JSON.parse(mediaPolicy(`${dir}/master.m3u8`, signatureExpiry(at))!).Statement[0].Resource).toBe(
        `${dir}/*`,
      );
      expect(refusal(`${dir}/720p30/1.ts`, credentialsOf(signed), seconds(at))).toBeUndefined();
      // Outside the CDN's own path, nothing is signed.
      const elsewhere =
        'http://127.0.0.1:3001/ivs/v1/000000000000/AbCd/2026/11/24/15/4/rec1/media/hls/master.m3u8';
      expect(mediaSigner(key(), () => at)(elsewhere)).toBe(elsewhere);
    } finally {
      if (previous === undefined) delete process.env.CDN_URL;
      else process.env.CDN_URL = previous;
    }
  });
});
