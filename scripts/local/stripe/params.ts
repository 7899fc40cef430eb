import type { Form, FormValue } from './form.ts';

/**
 * A Stripe API error, answered as Stripe answers it: `{ error: { type, code, message, param } }`
 * with the status Stripe uses (400 invalid request, 401 bad key, 402 card error, 404 missing
 * resource, 409 idempotency conflict). The official client turns each into its typed error class.
 */
export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: 'invalid_request_error' | 'card_error' | 'idempotency_error' | 'api_error',
    message: string,
    readonly code?: string,
    readonly param?: string,
  ) {
    super(message);
  }

  /** The body Stripe sends. */
  body(): { error: Record<string, string> } {
    return {
      error: {
        type: this.type,
        message: this.message,
        ...(this.code
          ? { code: this.code, doc_url: `https://stripe.com/docs/error-codes/${this.code}` }
          : {}),
        ...(this.param ? { param: this.param } : {}),
      },
    };
  }
}

/** `No such customer: 'cus_x'` (404 resource_missing), as Stripe words it. */
export const noSuch = (kind: string, id: string, param = 'id'): StripeApiError =>
  new StripeApiError(404, 'invalid_request_error', `No such ${kind}: '${id}'`, 'resource_missing', param);

/** 400 parameter_invalid_* / parameter_missing / other invalid requests. */
export const invalid = (message: string, param?: string, code = 'parameter_invalid'): StripeApiError =>
  new StripeApiError(400, 'invalid_request_error', message, code, param);

const describe = (value: FormValue | undefined) =>
  typeof value === 'string' ? value : JSON.stringify(value);

/** Typed reads of a form's parameters; a wrong type is Stripe's 400 with the parameter named. */
export const reader = (form: Form, prefix = '') => {
  const name = (key: string) => (prefix ? `${prefix}[${key}]` : key);
  const self = {
    form,
    has: (key: string) => form[key] !== undefined,
    string: (key: string): string | undefined => {
      const value = form[key];
      if (value === undefined) return undefined;
      if (typeof value !== 'string') throw invalid(`Invalid string: ${describe(value)}`, name(key));
      return value;
    },
    required: (key: string): string => {
      const value = self.string(key);
      if (value === undefined || value === '')
        throw invalid(`Missing required param: ${name(key)}.`, name(key), 'parameter_missing');
      return value;
    },
    oneOf: <T extends string>(key: string, allowed: readonly T[]): T | undefined => {
      const value = self.string(key);
      if (value === undefined) return undefined;
      if (!allowed.includes(value as T))
        throw invalid(
          `Invalid ${name(key)}: must be one of ${allowed.join(', ')}`,
          name(key),
          'parameter_invalid_string',
        );
      return value as T;
    },
    integer: (key: string): number | undefined => {
      const value = self.string(key);
      if (value === undefined || value === '') return undefined;
      if (!/^-?\d+$/.test(value))
        throw invalid(`Invalid integer: ${value}`, name(key), 'parameter_invalid_integer');
      return Number(value);
    },
    decimal: (key: string): number | undefined => {
      const value = self.string(key);
      if (value === undefined || value === '') return undefined;
      const parsed = Number(value);
      if (!Number.isFinite(parsed)) throw invalid(`Invalid decimal: ${value}`, name(key));
      return parsed;
    },
    boolean: (key: string): boolean | undefined => {
      const value = self.string(key);
      if (value === undefined) return undefined;
      if (value !== 'true' && value !== 'false') throw invalid(`Invalid boolean: ${value}`, name(key));
      return value === 'true';
    },
    object: (key: string) => {
      const value = form[key];
      if (value === undefined || value === '') return undefined;
      if (typeof value === 'string' || Array.isArray(value))
        throw invalid(`Invalid object: ${describe(value)}`, name(key));
      return reader(value as Form, name(key));
    },
    array: (key: string) => {
      const value = form[key];
      if (value === undefined || value === '') return [];
      if (!Array.isArray(value)) throw invalid(`Invalid array`, name(key), 'parameter_invalid_array');
      return value.map((item, i) => {
        if (typeof item === 'string' || Array.isArray(item))
          throw invalid(`Invalid object`, `${name(key)}[${i}]`);
        return reader(item as Form, `${name(key)}[${i}]`);
      });
    },
    strings: (key: string): string[] => {
      const value = form[key];
      if (value === undefined || value === '') return [];
      const list = Array.isArray(value) ? value : [value];
      return list.map((item) => {
        if (typeof item !== 'string') throw invalid(`Invalid array`, name(key), 'parameter_invalid_array');
        return item;
      });
    },
    /** `metadata[...]` merged into `current`: an empty value deletes a key, `metadata=` clears all. */
    metadata: (current: Record<string, string> = {}, key = 'metadata'): Record<string, string> => {
      const value = form[key];
      if (value === undefined) return current;
      if (value === '') return {};
      if (typeof value === 'string' || Array.isArray(value)) throw invalid('Invalid object', name(key));
      const next = { ...current };
      for (const [k, v] of Object.entries(value)) {
        if (typeof v !== 'string') throw invalid('Invalid metadata value', `${name(key)}[${k}]`);
        if (v === '') delete next[k];
        else next[k] = v;
      }
      return next;
    },
  };
  return self;
};
export type Params = ReturnType<typeof reader>;
