import * as z from 'zod';
import { BadRequestError, type FieldError, ValidationError } from './errors.ts';

const fieldOf = (issue: z.core.$ZodIssue): string => issue.path.map(String).join('.') || '(root)';

/** Spec 7: a body that fails its schema is a 422 with `errors: [{field, message}]`. */
export const parseBody = <S extends z.ZodType>(schema: S, input: unknown): z.infer<S> => {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const errors: FieldError[] = result.error.issues.map((issue) => ({
    field: fieldOf(issue),
    message: issue.message,
  }));
  throw new ValidationError(errors);
};

/** Query strings and path parameters that fail their schema are a 400 naming what is allowed. */
export const parseParams = <S extends z.ZodType>(
  schema: S,
  input: unknown,
  where: 'query' | 'path',
): z.infer<S> => {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const first = result.error.issues[0];
  const detail = result.error.issues.map((issue) => `${fieldOf(issue)}: ${issue.message}`).join('; ');
  throw new BadRequestError(first ? `Invalid ${where} parameter ${detail}` : `Invalid ${where} parameters`);
};

/** Upper bound on `limit` for every paginated endpoint (documented in the README). */
export const MAX_PAGE_SIZE = 100;
/** Upper bound on `page`; deeper pages are empty anyway and cost nothing to reject. */
export const MAX_PAGE = 10_000;

const intParam = (name: string, fallback: number, max: number) =>
  z.coerce
    .number({ error: `${name} must be a whole number between 1 and ${max}` })
    .int({ error: `${name} must be a whole number between 1 and ${max}` })
    .min(1, { error: `${name} must be a whole number between 1 and ${max}` })
    .max(max, { error: `${name} must be a whole number between 1 and ${max}` })
    .default(fallback);

/** `page` (default 1) and `limit` (given default, at most MAX_PAGE_SIZE) query parameters. */
export const pageQuery = (defaultLimit: number) => ({
  page: intParam('page', 1, MAX_PAGE),
  limit: intParam('limit', defaultLimit, MAX_PAGE_SIZE),
});

/** A query-string enum whose error message lists the allowed values (spec 7). */
export const enumParam = <const T extends readonly [string, ...string[]]>(name: string, values: T) =>
  z.enum(values, { error: `${name} must be one of: ${values.join(', ')}` });

/** A query-string boolean: `true`/`false`/`1`/`0`. */
export const boolParam = (name: string) =>
  z
    .enum(['true', 'false', '1', '0'], { error: `${name} must be true or false` })
    .transform((v) => v === 'true' || v === '1');

/** A path id: non-empty, bounded, URL-safe. */
export const idParam = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9_.:-]+$/, { error: 'must contain only letters, digits, _ . : -' });
