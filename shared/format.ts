const UNITS: ReadonlyArray<readonly [number, string]> = [
  [1e9, 'B'],
  [1e6, 'M'],
  [1e3, 'K'],
];

/** Abbreviated count for `*_formatted` fields: 950, 1.2K, 3.4M, 1.1B (one decimal, trailing .0 dropped). */
export const formatCount = (value: number): string => {
  const abs = Math.abs(value);
  for (const [size, suffix] of UNITS) {
    if (abs >= size) {
      const scaled = Math.floor((value / size) * 10) / 10;
      // 999_950 would round to "1000K"; promote it to the next unit instead.
      if (scaled >= 1000 && suffix !== 'B') continue;
      return `${scaled.toFixed(1).replace(/\.0$/, '')}${suffix}`;
    }
  }
  return String(Math.trunc(value));
};

const pad = (n: number) => String(n).padStart(2, '0');

/** `MM:SS` under an hour, `H:MM:SS` from an hour up (spec: `duration_formatted`, `watch_duration_formatted`). */
export const formatDuration = (totalSeconds: number): string => {
  const s = Math.max(0, Math.floor(totalSeconds));
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const seconds = s % 60;
  return hours > 0 ? `${hours}:${pad(minutes)}:${pad(seconds)}` : `${pad(minutes)}:${pad(seconds)}`;
};
