import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';
import { BadRequestError, type FieldError, ValidationError } from '../errors/errors.ts';
import { described } from './schema-meta.ts';

/**
 * Request schemas use Zod Mini (the same engine as zod, functional checks): ~20 KB instead of
 * ~90 KB in every Lambda bundle and less work at import (docs/performance.md). Mini ships no
 * locale, so the English messages are loaded once here, where every validating handler passes.
 */
z.config(en());

/** Any request or response schema. */
export type Schema = z.ZodMiniType;

const fieldOf = (issue: z.core.$ZodIssue): string => issue.path.map(String).join('.') || '(root)';

/** The name a missing field goes by: the last segment of its path. */
const nameOf = (issue: z.core.$ZodIssue): string => String(issue.path.at(-1) ?? '(root)');

/**
 * A field that is absent fails its schema whatever the schema's own message says (`must be one of`,
 * `must be a session id`): say it is required. Parsed with `reportInput`, so an issue whose input is
 * undefined is one about a field that was not sent (JSON has no undefined).
 */
const isMissing = (issue: z.core.$ZodIssue): boolean =>
  issue.path.length > 0 &&
  issue.input === undefined &&
  ['invalid_type', 'invalid_value'].includes(issue.code);

const messageOf = (issue: z.core.$ZodIssue): string =>
  isMissing(issue) ? `${nameOf(issue)} is required` : issue.message;

/** A schema's definition, as far as the walk below reads it. */
interface Def {
  type: string;
  shape?: Record<string, Schema>;
  element?: Schema;
  innerType?: Schema;
  in?: Schema;
  valueType?: Schema;
}
const defOf = (schema: Schema) => (schema as unknown as { _zod: { def: Def } })._zod.def;
const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Fields a body sends that its schema does not know (a misspelt `descripton`), at any depth of
 * objects, arrays and records (not inside unions, which none of our bodies nest objects in). zod
 * objects strip unknown keys silently; a client would never learn its field was dropped, so every
 * request body is strict here, in one place, rather than `z.strictObject` in every schema
 * (docs/contracts.md "Unknown fields").
 */
export const unknownFields = (schema: Schema, input: unknown, path: string[] = []): string[] => {
  const def = defOf(schema);
  const inner = def.innerType ?? (def.type === 'pipe' ? def.in : undefined);
  if (inner) return unknownFields(inner, input, path);
  if (def.type === 'object' && def.shape && isRecord(input)) {
    const shape = def.shape;
    return Object.entries(input).flatMap(([key, value]) => {
      // Own keys only: `__proto__` in a JSON body is an own key that `shape[key]` would answer with Object.prototype.
      const field = Object.hasOwn(shape, key) ? shape[key] : undefined;
      return field ? unknownFields(field, value, [...path, key]) : [[...path, key].join('.')];
    });
  }
  if (def.type === 'array' && def.element && Array.isArray(input)) {
    const element = def.element;
    return input.flatMap((item, i) => unknownFields(element, item, [...path, String(i)]));
  }
  if (def.type === 'record' && def.valueType && isRecord(input)) {
    const value = def.valueType;
    return Object.entries(input).flatMap(([key, item]) => unknownFields(value, item, [...path, key]));
  }
  return [];
};

/**
 * Spec 7: a body that fails its schema is a 422 with `errors: [{field, message}]`; a field the
 * schema does not know is one of them (`<field> is not a field of this request body`).
 */
export const parseBody = <S extends Schema>(schema: S, input: unknown): z.infer<S> => {
  const result = schema.safeParse(input ?? {}, { reportInput: true });
  const unknown = unknownFields(schema, input ?? {});
  if (result.success && unknown.length === 0) return result.data as z.infer<S>;
  const errors: FieldError[] = [
    ...(result.error?.issues ?? []).map((issue) => ({ field: fieldOf(issue), message: messageOf(issue) })),
    ...unknown.map((field) => ({ field, message: `${field} is not a field of this request body` })),
  ];
  // Two checks of one field can fail with the same words (a URL that is neither https nor one of
  // ours): each error once.
  throw new ValidationError([...new Map(errors.map((e) => [`${e.field}\n${e.message}`, e])).values()]);
};

/**
 * Query strings and path parameters that fail their schema are a 400 naming what is allowed, or
 * what is missing (`Missing required query parameter session_id`).
 */
export const parseParams = <S extends Schema>(
  schema: S,
  input: unknown,
  where: 'query' | 'path',
): z.infer<S> => {
  const result = schema.safeParse(input ?? {}, { reportInput: true });
  if (result.success) return result.data as z.infer<S>;
  const { issues } = result.error;
  if (issues.length > 0 && issues.every(isMissing)) {
    throw new BadRequestError(`Missing required ${where} parameter ${issues.map(fieldOf).join(', ')}`);
  }
  // Each failure once, as parseBody: a page past 2^53 fails `int` and `maximum` with one message.
  const detail = [...new Set(issues.map((issue) => `${fieldOf(issue)}: ${messageOf(issue)}`))].join('; ');
  throw new BadRequestError(
    issues.length > 0 ? `Invalid ${where} parameter ${detail}` : `Invalid ${where} parameters`,
  );
};

/** Upper bound on `limit` for every paginated endpoint (documented in the README). */
export const MAX_PAGE_SIZE = 100;
/** Upper bound on `page`; deeper pages are empty anyway and cost nothing to reject. */
export const MAX_PAGE = 10_000;

/** A whole number from a query string, `min`..`max`, one message for every way to miss. */
export const wholeNumberParam = (error: string, min: number, max: number) =>
  z.coerce.number({ error }).check(z.int({ error }), z.minimum(min, { error }), z.maximum(max, { error }));

const intParam = (name: string, fallback: number, max: number, description: string) =>
  described(
    z._default(wholeNumberParam(`${name} must be a whole number between 1 and ${max}`, 1, max), fallback),
    description,
  );

/** `page` (default 1) and `limit` (given default, at most MAX_PAGE_SIZE) query parameters. */
export const pageQuery = (defaultLimit: number) => ({
  page: intParam('page', 1, MAX_PAGE, 'Page to return, from 1'),
  limit: intParam('limit', defaultLimit, MAX_PAGE_SIZE, `Items per page (default ${defaultLimit})`),
});

/** A query-string enum whose error message lists the allowed values (spec 7). */
export const enumParam = <const T extends readonly [string, ...string[]]>(name: string, values: T) =>
  z.enum(values, { error: `${name} must be one of: ${values.join(', ')}` });

/** A query-string boolean: `true`/`false`/`1`/`0`. */
export const boolParam = (name: string) =>
  z.pipe(
    z.enum(['true', 'false', '1', '0'], { error: `${name} must be true or false` }),
    z.transform((v) => v === 'true' || v === '1'),
  );

/** A path id: non-empty, bounded, URL-safe. */
export const idParam = /* @__PURE__ */ (() =>
  described(
    z
      .string()
      .check(
        z.minLength(1),
        z.maxLength(128),
        z.regex(/^[A-Za-z0-9_.:-]+$/, { error: 'must contain only letters, digits, _ . : -' }),
      ),
    'An id: 1-128 letters, digits, `_`, `.`, `:` or `-`',
  ))();

// ---- Bounds on what a user can store (docs/conventions.md "Input bounds") -------------------

/** Longest URL a user can store, in characters (what browsers and CDNs reliably carry). */
export const MAX_URL_LENGTH = 2048;

/** The date window of every date a user sends: from 1970-01-01 (UTC) to this many years after now. */
export const DATE_WINDOW_YEARS_AHEAD = 10;
const EARLIEST_MS = 0;
const YEAR_MS = 365.25 * 86_400_000;

/** Is the instant `ms` inside the date window (1970 to DATE_WINDOW_YEARS_AHEAD years after `now`)? */
export const inDateWindow = (ms: number, now: number): boolean =>
  ms >= EARLIEST_MS && ms <= now + DATE_WINDOW_YEARS_AHEAD * YEAR_MS;

/** The message of a date outside the window. */
export const DATE_WINDOW_ERROR = `must be between 1970-01-01T00:00:00Z and ${DATE_WINDOW_YEARS_AHEAD} years from now`;

/**
 * An ISO 8601 date-time with `Z` or an offset, inside the date window (checked against the
 * request's receive time as the validator sees it): `9999-12-31T23:00:00Z` and
 * `0000-01-01T00:00:00+01:00` are 422s, not stored years that do not sort (issue 33).
 */
export const windowedDateTime = (error: string) =>
  z.iso.datetime({ offset: true, error }).check(
    z.refine(
      (value) => {
        const ms = Date.parse(value);
        return Number.isNaN(ms) || inDateWindow(ms, Date.now()); // not a date: the format check says so
      },
      { error: DATE_WINDOW_ERROR },
    ),
  );
