/** mulberry32: a small, fast, seedable PRNG. Same seed → same sequence on every machine. */
export const createRandom = (seed: number) => {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const chance = (p: number) => next() < p;
  /** Long-tail value between min and max (log-uniform, skewed low by `power`). */
  const longTail = (min: number, max: number, power = 1.6) =>
    Math.round(Math.exp(Math.log(min) + (Math.log(max) - Math.log(min)) * next() ** power));
  return { next, int, pick, chance, longTail };
};

export type Random = ReturnType<typeof createRandom>;
