/**
 * Characters text shown to other people must not hold (docs/conventions.md "Display text"): the
 * request schemas (shared/schema/display-text.ts) and the chat message review
 * (shared/chat/review.ts) both ask here. No dependencies, so the review handler's bundle stays
 * without Zod.
 */

/** C0 controls (U+0000-U+001F, U+007F) and C1 controls (U+0080-U+009F). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
export const CONTROL = /[\u0000-\u001F\u007F-\u009F]/;
/** CONTROL less tab, line feed and carriage return (multi-line text). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: as CONTROL, less tab, line feed and carriage return
export const CONTROL_MULTILINE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
/** Bidi overrides and isolates (U+202A-U+202E, U+2066-U+2069): they reorder what readers see. */
export const BIDI_OVERRIDE = /[\u202A-\u202E\u2066-\u2069]/;
/**
 * A visible character: not whitespace (`\s`, which includes U+FEFF) nor an invisible one: format
 * characters (soft hyphen, the zero-width ones, marks, word joiner and invisible operators, the
 * deprecated format controls U+206A-U+206F), the combining grapheme joiner, variation selectors,
 * the Mongolian ones, the Khmer inherent vowels, and the blank fillers (Hangul fillers U+115F,
 * U+1160, U+3164, U+FFA0; the braille blank U+2800), which show nothing and were the usual blank
 * chat message or name. BMP only, so the API document's pattern reads it with or without `u`.
 */
export const VISIBLE =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: each invisible or combining character is refused alone, on purpose
  /[^\s\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u2060-\u2064\u206A-\u206F\u2800\u3164\uFE00-\uFE0F\uFEFF\uFFA0]/;

/** True when `text` has at least one character a reader sees. */
export const hasVisibleCharacter = (text: string): boolean => VISIBLE.test(text);

/** True when `text` holds a control character (tab and line breaks allowed if `multiline`) or a bidi override. */
export const hasControlCharacter = (text: string, multiline: boolean): boolean =>
  (multiline ? CONTROL_MULTILINE : CONTROL).test(text) || BIDI_OVERRIDE.test(text);
