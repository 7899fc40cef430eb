import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ensureTestPattern,
  liveMediaPlaylist,
  type TestPattern,
  vodMediaPlaylist,
} from '../../scripts/local/ivs/test-pattern.ts';

/** The clock-driven live playlist over the looping test pattern, and the generated pattern itself. */
const pattern: TestPattern = {
  dir: '/pattern',
  segments: Array.from({ length: 12 }, (_, i) => `seg${String(i).padStart(3, '0')}.ts`),
  segmentSeconds: 2,
  thumbnail: '/pattern/thumb.jpg',
};
const startedAt = Date.parse('2026-11-24T07:00:00Z');
const at = (seconds: number) =>
  liveMediaPlaylist(pattern, {
    startedAt,
    now: startedAt + seconds * 1000,
    segmentUri: (sequence, file) => `s${sequence}.ts#${file}`,
  });
const tag = (playlist: string, name: string) => Number(new RegExp(`#${name}:(\\d+)`).exec(playlist)?.[1]);
const uris = (playlist: string) => playlist.split('\n').filter((line) => line.startsWith('s'));

describe('the live media playlist', () => {
  it('advances the media sequence with the wall clock, one segment per segment duration', () => {
    expect(tag(at(0), 'EXT-X-MEDIA-SEQUENCE')).toBe(0);
    expect(uris(at(0))).toEqual([
      's0.ts#seg000.ts',
      's1.ts#seg001.ts',
      's2.ts#seg002.ts',
      's3.ts#seg003.ts',
      's4.ts#seg004.ts',
    ]);
    expect(tag(at(1.99), 'EXT-X-MEDIA-SEQUENCE')).toBe(0);
    expect(tag(at(5), 'EXT-X-MEDIA-SEQUENCE')).toBe(2);
    expect(tag(at(5), 'EXT-X-TARGETDURATION')).toBe(2);
    expect(at(5)).not.toContain('#EXT-X-ENDLIST');
  });

  it('loops the segments with a discontinuity at each wrap, counted once it leaves the window', () => {
    const wrapping = at(22); // sequences 11..15: the wrap is at 12
    expect(uris(wrapping)).toEqual([
      's11.ts#seg011.ts',
      's12.ts#seg000.ts',
      's13.ts#seg001.ts',
      's14.ts#seg002.ts',
      's15.ts#seg003.ts',
    ]);
    expect(wrapping.split('\n').indexOf('#EXT-X-DISCONTINUITY')).toBe(
      wrapping.split('\n').indexOf('s12.ts#seg000.ts') - 2,
    );
    expect(tag(wrapping, 'EXT-X-DISCONTINUITY-SEQUENCE')).toBe(0);
    expect(tag(at(24), 'EXT-X-DISCONTINUITY-SEQUENCE')).toBe(0); // the wrap segment is first, still listed
    expect(tag(at(26), 'EXT-X-DISCONTINUITY-SEQUENCE')).toBe(1);
    expect(tag(at(24 * 10 + 2), 'EXT-X-DISCONTINUITY-SEQUENCE')).toBe(10);
  });

  it('a recording (VOD) playlist lists every segment and ends', () => {
    const vod = vodMediaPlaylist(pattern, 14, (sequence) => `${sequence}.ts`);
    expect(vod.match(/#EXTINF:2\.000,/g)).toHaveLength(14);
    expect(vod).toContain('#EXT-X-PLAYLIST-TYPE:VOD');
    expect(vod.match(/#EXT-X-DISCONTINUITY\n/g)).toHaveLength(1);
    expect(vod.trimEnd().endsWith('#EXT-X-ENDLIST')).toBe(true);
  });
});

describe('the generated pattern', () => {
  it('has 12 two-second MPEG-TS segments and a thumbnail', async () => {
    const generated = await ensureTestPattern();
    expect(generated.segments).toHaveLength(12);
    expect(generated.segmentSeconds).toBe(2);
    for (const segment of generated.segments)
      expect(statSync(join(generated.dir, segment)).size).toBeGreaterThan(10_000);
    expect(existsSync(generated.thumbnail)).toBe(true);
  });
});
