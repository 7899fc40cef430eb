import { describe, expect, it } from 'vitest';
import { tokenize } from '../../shared/search/normalize.ts';

/** Unicode's own tokenizer (the one non-ASCII text takes), to hold the ASCII path to it. */
const unicodeTokens = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((token) => token.length > 0);

describe('tokenize', () => {
  it('lower-cases, strips accents, apostrophes and punctuation', () => {
    expect(tokenize("Zoë O'Brien")).toEqual(['zoe', 'obrien']);
    expect(tokenize('Café  del  Mar — Live!')).toEqual(['cafe', 'del', 'mar', 'live']);
    expect(tokenize('O’Neil’s 2nd show')).toEqual(['oneils', '2nd', 'show']);
    expect(tokenize('  ...  ')).toEqual([]);
  });

  it('gives ASCII text the tokens of the Unicode path (issue 41: no ICU work for ASCII)', () => {
    let ascii = '';
    for (let code = 0; code < 128; code++) ascii += String.fromCharCode(code);
    const samples = [ascii, "Sam O'Brien's 24/7 Comedy-Hour", 'AbC_dEf\tghi\n42x', 'x'.repeat(3)];
    for (const text of samples) expect(tokenize(text)).toEqual(unicodeTokens(text));
  });
});
