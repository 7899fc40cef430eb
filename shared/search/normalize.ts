/** Any character outside ASCII. */
const NON_ASCII = /[\u0080-\uffff]/;

/**
 * Lower-cases, strips accents and punctuation: "Zoë O'Brien" → ["zoe", "obrien"]. ASCII text (most
 * names and queries) takes a path without Unicode normalisation and property classes: the same
 * tokens (NFKD leaves ASCII as it is, no ASCII character is a mark, and the ASCII letters and
 * digits are `[a-z0-9]` once lower-cased), without building ICU's normaliser and compiling the
 * `\p{L}\p{N}` class at a container's first search (~1 ms of its first request, issue 41).
 */
export const tokenize = (text: string): string[] =>
  (NON_ASCII.test(text)
    ? text
        .normalize('NFKD')
        .replace(/\p{M}/gu, '')
        .toLowerCase()
        .replace(/['’]/g, '')
        .split(/[^\p{L}\p{N}]+/u)
    : text
        .toLowerCase()
        .replace(/'/g, '')
        .split(/[^a-z0-9]+/)
  ).filter((token) => token.length > 0);

/** Every string obtained by deleting one character (the SymSpell deletion neighbourhood). */
export const deletions = (token: string): string[] => {
  const out = new Set<string>();
  for (let i = 0; i < token.length; i++) out.add(token.slice(0, i) + token.slice(i + 1));
  return [...out];
};

/** Optimal-string-alignment distance (Levenshtein plus adjacent transposition), capped at max+1. */
export const editDistance = (a: string, b: string, max = 1): number => {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, d[i - 2]![j - 2]! + 1);
      d[i]![j] = value;
    }
  }
  return d[a.length]![b.length]!;
};

/** Words of at least this many letters tolerate one typo. */
export const TYPO_MIN_LENGTH = 5;
