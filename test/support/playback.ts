import { expect } from 'vitest';
import { createPublicKey, verify } from 'node:crypto';
import { localPlaybackKey } from '../../scripts/local/local-key.ts';

/**
 * A playback token's claims, after checking its ES384 signature against the local playback key's
 * public half (what the local platform imports into the IVS stand-in); throws when it does not
 * verify.
 */
export const playbackClaimsOf = (token: string): Record<string, unknown> => {
  const [header, payload, signature] = token.split('.');
  if (!header || !payload || !signature) throw new Error('not a JWT');
  const key = createPublicKey(localPlaybackKey().privateKey);
  const ok = verify(
    'sha384',
    Buffer.from(`${header}.${payload}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!ok) throw new Error('playback token signature does not verify');
  expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toMatchObject({ alg: 'ES384' });
  return JSON.parse(Buffer.from(payload, 'base64url').toString());
};

/** The channel id in an IVS playback URL (`…/api/video/v1/<region>.<account>.channel.<id>.m3u8`). */
export const channelIdOfPlaybackUrl = (url: string): string => {
  const match = /\.channel\.([A-Za-z0-9-]+)\.m3u8$/.exec(new URL(url).pathname);
  if (!match) throw new Error(`not an IVS playback URL: ${url}`);
  return match[1]!;
};

/**
 * A media CDN URL (`{cdn_url}/…`) as the local media CDN stand-in serves it
 * (scripts/local/media-cdn.ts, `/cdn/` on the IVS stand-in's port), query included: the stand-in
 * checks the signature against the public URL, as CloudFront does.
 */
export const viaLocalCdn = (url: string, standIn = process.env.IVS_ENDPOINT): string => {
  const cdn = (process.env.CDN_URL ?? 'https://cdn.example.com').replace(/\/+$/, '');
  if (!url.startsWith(`${cdn}/`)) throw new Error(`not a media CDN URL: ${url}`);
  return `${standIn}/cdn/${url.slice(cdn.length + 1)}`;
};
