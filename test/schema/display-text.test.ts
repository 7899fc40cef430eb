import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { createShowBody } from '../../shared/studio/schemas.ts';
import { chatSettingsBody } from '../../shared/chat/schemas.ts';
import { displayText } from '../../shared/schema/display-text.ts';
import { parseBody } from '../../shared/schema/validation.ts';

/** What a schema answers: the accepted value, or its messages. */
const run = (schema: z.ZodMiniType, input: unknown) => {
  const result = schema.safeParse(input);
  return result.success ? { value: result.data } : { errors: result.error.issues.map((i) => i.message) };
};

const line = displayText({ name: 'title', min: 1, max: 20 });
const multi = displayText({ name: 'description', min: 0, max: 50, multiline: true });

const CONTROL = 'title must not contain control characters or line breaks';
const BIDI =
  'title must not contain bidirectional override or isolate characters (U+202A-U+202E, U+2066-U+2069)';
const VISIBLE = 'title must contain at least one visible character';

describe('displayText: a single-line field with min 1', () => {
  it.each([
    ['plain', 'Late Night', 'Late Night'],
    ['trimmed', '  Late Night \t', 'Late Night'],
    ['emoji', '🎸 Loops 👩‍👩‍👧', '🎸 Loops 👩‍👩‍👧'],
    ['accents', 'Café Crème', 'Café Crème'],
    ['CJK', '深夜ループ', '深夜ループ'],
    ['Arabic', 'حلقات الليل', 'حلقات الليل'],
    ['Hebrew', 'לולאות לילה', 'לולאות לילה'],
    ['Arabic with a right-to-left mark', 'حلقات\u200F 2', 'حلقات\u200F 2'],
    ['a zero-width joiner inside visible text', 'a\u200Db', 'a\u200Db'],
    ['NFD normalised to NFC', 'Cafe\u0301', 'Café'],
  ])('accepts %s', (_, input, value) => {
    expect(run(line, input)).toEqual({ value });
  });

  it.each([
    ['a NUL', 'a\u0000b', [CONTROL]],
    ['a line feed inside', 'a\nb', [CONTROL]],
    ['a tab inside', 'a\tb', [CONTROL]],
    ['DEL', 'a\u007Fb', [CONTROL]],
    ['a C1 control', 'a\u0085b', [CONTROL]],
    ['a right-to-left override', 'spam\u202Egnp.exe', [BIDI]],
    ['a left-to-right embedding', '\u202Aabc', [BIDI]],
    ['a first-strong isolate', 'abc\u2068def\u2069', [BIDI]],
    ['only zero-width spaces', '\u200B\u200B\u200B', [VISIBLE]],
    ['only invisible characters', '\u200C\u200D\u2060\u00AD\uFEFF\u200B', [VISIBLE]],
    ['only blank fillers (Hangul fillers, the braille blank)', '\u3164\u3164\uFFA0\u2800', [VISIBLE]],
    ['only characters that show nothing', '\u115F\u1160\u034F\u180E\u2062\uFE0F\u17B4', [VISIBLE]],
    ['only spaces (the length rule says so)', '   ', ['Too small: expected string to have >=1 characters']],
    ['too long', 'x'.repeat(21), ['Too big: expected string to have <=20 characters']],
    ['not a string', 5, ['Invalid input: expected string, received number']],
  ])('refuses %s', (_, input, errors) => {
    expect(run(line, input)).toEqual({ errors });
  });
});

describe('displayText: a multiline field with min 0', () => {
  it.each([
    ['empty', '', ''],
    ['tab, line feed and carriage return', 'one\ttwo\r\nthree', 'one\ttwo\r\nthree'],
    ['only invisible characters (no visible-text rule at min 0)', '\u200B', '\u200B'],
  ])('accepts %s', (_, input, value) => {
    expect(run(multi, input)).toEqual({ value });
  });

  it.each([
    ['a NUL', 'a\u0000b'],
    ['a vertical tab', 'a\u000Bb'],
    ['a C1 control', 'a\u009Bb'],
  ])('refuses %s', (_, input) => {
    expect(run(multi, input)).toEqual({
      errors: ['description must not contain control characters (other than tab and line breaks)'],
    });
  });
  it('refuses a pop-directional isolate', () => {
    expect(run(multi, 'a\u2069')).toEqual({
      errors: [
        'description must not contain bidirectional override or isolate characters (U+202A-U+202E, U+2066-U+2069)',
      ],
    });
  });
});

describe('the pattern the API document gives each field', () => {
  /** What the document says of `input`: the field's JSON Schema pattern, as JSON Schema reads it (`u`). */
  const documented = (schema: z.ZodMiniType, input: string) =>
    new RegExp((z.toJSONSchema(schema) as { pattern: string }).pattern, 'u').test(input);
  const inputs = [
    ...[
      'Late Night',
      '  Late Night \t',
      '\n Late \r\n',
      '🎸 Loops 👩‍👩‍👧',
      'Café Crème',
      '深夜ループ',
      'حلقات\u200F 2',
    ],
    ...['a\u200Db', 'Cafe\u0301', 'a\u0000b', 'a\nb', 'a\tb', 'a\u007Fb', 'a\u0085b', 'a\u009Bb', 'a\u000Bb'],
    ...['spam\u202Egnp.exe', '\u202Aabc', 'abc\u2068def\u2069', 'a\u2069', '\u200B\u200B\u200B', ''],
    ...[
      '\u200C\u200D\u2060\u00AD\uFEFF\u200B',
      '\u00AD x',
      'one\ttwo\r\nthree',
      '\u200B',
      ' \u000B a \u000C ',
      '\u3164\u3164\uFFA0\u2800',
      '\u115F\u1160\u034F\u180E\u2062\uFE0F\u17B4',
      '\u3164 x',
    ],
  ];
  it.each([
    ['a single-line field with min 1', line],
    ['a multiline field with min 0', multi],
  ])('%s: accepts exactly what the schema accepts (lengths aside)', (_, schema) => {
    const lengthless = (text: string) => text.length > 0 && text.length <= 20;
    for (const input of inputs.filter(lengthless))
      expect([input, documented(schema, input)]).toEqual([input, schema.safeParse(input).success]);
  });
});

describe('request bodies that use it', () => {
  const show = { title: 'Loops', description: '', category: 'music', rating: 'TV-PG' };
  it('keeps a field’s own messages and names the field in the new ones (422 errors)', () => {
    expect(() => parseBody(createShowBody, { ...show, title: '\u200B\u200B' })).toThrow(
      expect.objectContaining({
        errors: [{ field: 'title', message: 'title must contain at least one visible character' }],
      }),
    );
    expect(() => parseBody(createShowBody, { ...show, title: ' ' })).toThrow(
      expect.objectContaining({ errors: [{ field: 'title', message: 'must be 1-120 characters' }] }),
    );
  });

  it('drops duplicate tags ignoring letter case after trimming, keeping the first spelling', () => {
    expect(
      parseBody(createShowBody, { ...show, tags: ['a', 'a', 'A', ' Live', 'live ', 'LIVE'] }).tags,
    ).toEqual(['a', 'Live']);
    // Duplicates do not count against the limit of 10.
    const many = [...Array.from({ length: 10 }, (_, i) => `t${i}`), 'T0', 't1'];
    expect(parseBody(createShowBody, { ...show, tags: many }).tags).toHaveLength(10);
  });

  it('drops duplicate blocked terms the same way', () => {
    expect(
      parseBody(chatSettingsBody, { blocked_terms: ['Spoiler', 'spoiler ', 'SPOILER'] }).blocked_terms,
    ).toEqual(['Spoiler']);
  });
});
