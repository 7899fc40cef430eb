import * as z from 'zod/mini';
import { BIDI_OVERRIDE, CONTROL, CONTROL_MULTILINE, hasVisibleCharacter, VISIBLE } from './characters.ts';

/**
 * Text a user sends that other people are shown (names, titles, descriptions, reasons, labels,
 * tags): docs/conventions.md "Display text". Trimmed, NFC-normalised, `min`..`max` characters
 * (counted after both), and refused, each with its own message naming the field, when it holds
 *
 * - a C0 control (U+0000-U+001F, U+007F) or a C1 control (U+0080-U+009F); a `multiline` field
 *   (descriptions, bios, report details) keeps tab, line feed and carriage return;
 * - a bidi override or isolate (U+202A-U+202E, U+2066-U+2069), which reorders what readers see;
 * - with `min` >= 1, nothing visible: only whitespace and invisible characters.
 *
 * Letters of every script, accents, emoji and the marks right-to-left text uses (U+200E, U+200F,
 * U+061C) are accepted. The characters are shared/schema/characters.ts's (the chat review uses them too).
 */

export interface DisplayTextOptions {
  /** The field's name, in the messages of the rules above. */
  name: string;
  min: number;
  max: number;
  /** Keeps tab, line feed and carriage return (descriptions, bios). */
  multiline?: boolean;
  /** The field's own messages: not a string, shorter than `min`, longer than `max`. */
  errors?: { type?: string; min?: string; max?: string };
}

/** A display-text field (see above): the one schema every such request field uses. */
export const displayText = ({ name, min, max, multiline = false, errors = {} }: DisplayTextOptions) => {
  const control = multiline ? CONTROL_MULTILINE : CONTROL;
  const checks: z.core.$ZodCheck<string>[] = [
    z.trim(),
    z.normalize('NFC'),
    z.maxLength(max, errors.max === undefined ? undefined : { error: errors.max }),
    z.refine((v: string) => !control.test(v), {
      error: multiline
        ? `${name} must not contain control characters (other than tab and line breaks)`
        : `${name} must not contain control characters or line breaks`,
    }),
    z.refine((v: string) => !BIDI_OVERRIDE.test(v), {
      error: `${name} must not contain bidirectional override or isolate characters (U+202A-U+202E, U+2066-U+2069)`,
    }),
  ];
  // A bound of 0 with no message of its own is no check (and no `minLength: 0` in the document).
  if (min > 0 || errors.min !== undefined)
    checks.splice(2, 0, z.minLength(min, errors.min === undefined ? undefined : { error: errors.min }));
  if (min >= 1)
    checks.push(
      z.refine((v: string) => v.length === 0 || hasVisibleCharacter(v), {
        error: `${name} must contain at least one visible character`,
      }),
    );
  const schema = z.string(errors.type === undefined ? undefined : { error: errors.type }).check(...checks);
  // Only the OpenAPI document reads it: Lambda bundles register nothing (as `described`).
  if (process.env.LAMBDA_BUNDLE_RESPONSES !== 'none')
    z.globalRegistry.add(schema, { pattern: displayTextPattern(control, min >= 1) });
  return schema;
};

/**
 * The rules above as a JSON Schema `pattern` (ECMA-262), so the API document and clients
 * generated from it carry them: leading and trailing whitespace (which the server trims) may hold
 * line breaks, the rest no control character or bidi override, and with `visible` at least one
 * visible character. test/schema/display-text.test.ts holds it to the schema, case by case.
 */
const displayTextPattern = (control: RegExp, visible: boolean): string =>
  `^${visible ? `(?=[\\s\\S]*${VISIBLE.source})` : ''}\\s*[^${control.source.slice(1, -1)}${BIDI_OVERRIDE.source.slice(1, -1)}]*\\s*$`;

/**
 * A list of tags or terms: duplicates dropped ignoring letter case, the first spelling kept (after
 * each element's own trimming and normalising), before the list's own checks.
 */
export const withoutDuplicates = /* @__PURE__ */ (() =>
  z.overwrite((items: string[]) => {
    const seen = new Set<string>();
    return items.filter((item) => {
      const key = item.toLowerCase();
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }))();
