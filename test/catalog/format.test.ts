import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCount, formatDuration } from '../../shared/format.ts';

describe('formatCount (every *_formatted count)', () => {
  it('abbreviates as the spec shows: 950, 1.2K, 3.4M, 1.1B, truncating rather than rounding up', () => {
    const cases: Array<[number, string]> = [
      [0, '0'],
      [950, '950'],
      [999, '999'],
      [1_000, '1K'],
      [1_250, '1.2K'],
      [15_300, '15.3K'],
      [999_999, '999.9K'],
      [1_000_000, '1M'],
      [3_450_000, '3.4M'],
      [1_100_000_000, '1.1B'],
      [2_500_000_000_000, '2500B'],
    ];
    for (const [value, text] of cases) expect(formatCount(value), String(value)).toBe(text);
  });

  it('never shows more than one decimal nor a trailing .0, and never overstates', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 12 }), (value) => {
        const text = formatCount(value);
        expect(text).toMatch(/^\d+(\.\d)?[KMB]?$/);
        expect(text).not.toMatch(/\.0[KMB]?$/);
        const unit = { K: 1e3, M: 1e6, B: 1e9 }[text.slice(-1)] ?? 1;
        expect(Number.parseFloat(text) * unit).toBeLessThanOrEqual(value + 1e-6);
      }),
    );
  });
});

describe('formatDuration', () => {
  it('uses MM:SS under an hour and H:MM:SS from an hour, clamping negatives to zero', () => {
    expect(formatDuration(0)).toBe('00:00');
    expect(formatDuration(59.9)).toBe('00:59');
    expect(formatDuration(754)).toBe('12:34');
    expect(formatDuration(3_600)).toBe('1:00:00');
    expect(formatDuration(45_296)).toBe('12:34:56');
    expect(formatDuration(-5)).toBe('00:00');
  });
});
