import { describe, expect, it } from 'vitest';
import { carrySignature, signatureQuery } from '../../shared/playback/signed-playlists.ts';

/**
 * Recorded playlists carry the request's CloudFront signature to their children (issue 34), so a
 * plain hls.js player, which resolves a child URI without the playlist's query, sends it anyway.
 */
const QUERY = 'Policy=eyJ-_~&Key-Pair-Id=K2ABC&Signature=a~b-c_&Hash-Algorithm=SHA256';

describe('signatureQuery', () => {
  it("keeps CloudFront's signed-URL parameters as sent, nothing else", () => {
    expect(signatureQuery(`utm=x&${QUERY}&token=t`)).toBe(QUERY);
    expect(signatureQuery('')).toBe('');
    expect(signatureQuery('a=1')).toBe('');
  });
});

describe('carrySignature', () => {
  it('appends the signature to every relative URI of a multivariant playlist: lines and URI attributes', () => {
    const master = [
      '#EXTM3U',
      '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="en",URI="audio/playlist.m3u8"',
      '#EXT-X-STREAM-INF:BANDWIDTH=1000000,RESOLUTION=640x360',
      '360p30/playlist.m3u8',
      '#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=100000,URI="360p30/iframes.m3u8?x=1"',
      '',
    ].join('\n');
    expect(carrySignature(master, QUERY)).toBe(
      [
        '#EXTM3U',
        `#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="en",URI="audio/playlist.m3u8?${QUERY}"`,
        '#EXT-X-STREAM-INF:BANDWIDTH=1000000,RESOLUTION=640x360',
        `360p30/playlist.m3u8?${QUERY}`,
        `#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=100000,URI="360p30/iframes.m3u8?x=1&${QUERY}"`,
        '',
      ].join('\n'),
    );
  });

  it("signs a media playlist's segments and init section, and leaves absolute URIs (another host) alone", () => {
    const media =
      '#EXTM3U\r\n#EXT-X-MAP:URI="init.mp4"\r\n#EXTINF:2.0,\r\n0.ts\r\n#EXTINF:2.0,\r\nhttps://other.example/1.ts\r\n#EXT-X-ENDLIST\r\n';
    expect(carrySignature(media, QUERY)).toBe(
      `#EXTM3U\r\n#EXT-X-MAP:URI="init.mp4?${QUERY}"\r\n#EXTINF:2.0,\r\n0.ts?${QUERY}\r\n#EXTINF:2.0,\r\nhttps://other.example/1.ts\r\n#EXT-X-ENDLIST\r\n`,
    );
  });

  it('serves the playlist as stored when the request carried no signature (signed cookies)', () => {
    expect(carrySignature('#EXTM3U\n0.ts\n', '')).toBe('#EXTM3U\n0.ts\n');
  });
});
