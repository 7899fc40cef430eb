import * as z from 'zod/mini';
import {
  type Contract,
  errorStatusesOf,
  GATEWAY_THROTTLED,
  type Schema,
  type StatusEntry,
  type SuccessResponse,
} from '../../shared/http/contract.ts';

/**
 * Builds the OpenAPI 3.1 document from the endpoints' contracts alone (no handler is imported):
 * nothing is written by hand. Schemas registered with an `id` (zod metadata) become named
 * components, so generated clients get named types. Run at build time (`npm run openapi` →
 * docs/openapi.json); the `/openapi.json` route serves that file.
 */
type Json = Record<string, unknown>;

/** Named schemas met so far, by component name. */
type Components = Map<string, Json>;

/** Each component's definition as zod emitted it (refs not yet renamed), to tell real variants apart. */
const emitted = new WeakMap<Components, Map<string, string>>();

const DEFS = '#/$defs/';
const COMPONENT = '#/components/schemas/';

/** Bounds zod gives every integer (±2^53-1): true of any JSON integer, so not worth printing. */
const SAFE_BOUND = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

/** `$ref`s into `$defs` rewritten to components, and zod's safe-integer bounds dropped, recursively. */
const relink = (value: unknown, rename: (name: string) => string): unknown => {
  if (Array.isArray(value)) return value.map((v) => relink(v, rename));
  if (value === null || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [key, v] of Object.entries(value)) {
    if ((key === 'minimum' || key === 'maximum') && SAFE_BOUND.has(v as number)) continue;
    out[key] =
      key === '$ref' && typeof v === 'string' && v.startsWith(DEFS)
        ? `${COMPONENT}${rename(v.slice(DEFS.length))}`
        : relink(v, rename);
  }
  return out;
};

/**
 * The JSON Schema of `schema` as requests send it (`input`: defaults make fields optional) or as
 * responses carry it (`output`), its named parts hoisted into `components`. A named schema whose
 * request form differs from its response form is filed as `<Name>Input`.
 */
const toSchema = (schema: Schema, io: 'input' | 'output', components: Components): Json => {
  const {
    $schema: _s,
    $defs,
    ...json
  } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
  }) as Json & { $defs?: Record<string, Json> };
  const seen = emitted.get(components) ?? new Map<string, string>();
  emitted.set(components, seen);
  const names = new Map<string, string>();
  for (const [name, def] of Object.entries($defs ?? {})) {
    const key = JSON.stringify(def);
    const first = seen.get(name);
    if (first === undefined) seen.set(name, key);
    names.set(name, first === undefined || first === key ? name : `${name}Input`);
  }
  const rename = (name: string) => names.get(name) ?? name;
  for (const [name, def] of Object.entries($defs ?? {}))
    components.set(rename(name), relink(def, rename) as Json);
  return relink(json, rename) as Json;
};

const parameters = (schema: Schema | undefined, where: 'query' | 'path', components: Components): Json[] => {
  if (!schema) return [];
  const json = toSchema(schema, 'input', components);
  const props = (json.properties ?? {}) as Record<string, Json>;
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries(props).map(([name, { description, examples, ...property }]) => ({
    name,
    in: where,
    required: where === 'path' || (required.has(name) && property.default === undefined),
    ...(typeof description === 'string' ? { description } : {}),
    schema: property,
    ...(Array.isArray(examples) && examples.length > 0 ? { example: examples[0] } : {}),
  }));
};

const ref = (name: string) => ({ $ref: `${COMPONENT}${name}` });

const SHARED_SCHEMAS: Record<string, Json> = {
  Error: {
    type: 'object',
    description: 'The error envelope (spec 2.1); `code` equals the HTTP status.',
    required: ['status', 'code', 'message'],
    properties: {
      status: { const: 'error' },
      code: { type: 'integer', description: 'Equals the HTTP status' },
      message: {
        description:
          "What went wrong, for people; an internal error's 500 sends `{code: INTERNAL, message}` instead",
        oneOf: [
          { type: 'string' },
          {
            type: 'object',
            required: ['code', 'message'],
            properties: { code: { const: 'INTERNAL' }, message: { type: 'string' } },
          },
        ],
      },
      reason: {
        enum: ['rate_limit', 'concurrent_streams', 'step_up_required', 'second_factor_required'],
        description:
          'On 429: `rate_limit` (wait for Retry-After) or `concurrent_streams` (end another watch session first); on 401: `step_up_required` (the action needs a recent sign-in: POST /auth/step-up, then retry); on 403: `second_factor_required` (the operator requires creators to use a second factor: enrol one, POST /me/mfa/totp, and sign in or step up with it)',
      },
    },
  },
  ValidationError: {
    type: 'object',
    description: 'A body that failed validation: one entry per field (spec 7).',
    required: ['status', 'code', 'errors'],
    properties: {
      status: { const: 'error' },
      code: { const: 422 },
      errors: {
        type: 'array',
        items: {
          type: 'object',
          required: ['field', 'message'],
          properties: {
            field: { type: 'string', description: 'Dotted path of the field, `(root)` for the body itself' },
            message: { type: 'string' },
          },
        },
      },
    },
  },
  GatewayThrottled: {
    type: 'object',
    description:
      "API Gateway's own 429, sent before any endpoint runs when the API-wide or a per-route request rate is exceeded (not the API's envelope).",
    required: ['message'],
    properties: { message: { const: GATEWAY_THROTTLED.message } },
    additionalProperties: false,
  },
  ReactionsError: {
    type: 'object',
    description: 'The reactions API error envelope.',
    required: ['success', 'error', 'requestId'],
    properties: {
      success: { const: false },
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: {
          code: { type: 'string', description: 'Machine-readable error code, e.g. `NOT_FOUND`' },
          message: { type: 'string' },
          details: {
            type: 'array',
            description: 'On 422: one entry per field that failed validation',
            items: {
              type: 'object',
              required: ['field', 'message'],
              properties: { field: { type: 'string' }, message: { type: 'string' } },
            },
          },
        },
      },
      requestId: { type: 'string', format: 'uuid', description: 'Also sent as `x-request-id`' },
    },
  },
};

const SECURITY_SCHEMES = {
  bearer: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description:
      'Access token (ES256 JWT, 15 minutes) from sign-up, sign-in or refresh; verify it with /.well-known/jwks.json',
  },
};

const CODES: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  410: 'GONE',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'VALIDATION_ERROR',
  429: 'RATE_LIMITED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

const RETRY_AFTER = {
  'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } },
};

/** The error response of `entry` in the contract's envelope, with an example that fits it. */
const errorResponse = (c: Contract, entry: StatusEntry): Json => {
  const { status, description, message = '' } = entry;
  let schema: Json;
  let example: unknown;
  if (status === 429 && entry.reasons?.length === 0) {
    // No limit of the endpoint's own: the only 429 is API Gateway's.
    schema = ref('GatewayThrottled');
    example = { message: GATEWAY_THROTTLED.message };
  } else if (c.envelope === 'reactions') {
    schema =
      status === 429 ? { oneOf: [ref('ReactionsError'), ref('GatewayThrottled')] } : ref('ReactionsError');
    example = {
      success: false,
      error:
        status === 422
          ? {
              code: 'VALIDATION_ERROR',
              message: 'Validation failed',
              details: [{ field: 'emoji', message: 'Invalid input' }],
            }
          : { code: CODES[status], message },
      requestId: '8d3c4e1a-5b7f-4c2e-9a1d-2f6b8e0c7a45',
    };
  } else if (status === 422) {
    schema = ref('ValidationError');
    example = { status: 'error', code: 422, errors: [{ field: 'email', message: 'Invalid email address' }] };
  } else if (status === 429) {
    const reasons = entry.reasons ?? ['rate_limit'];
    schema = {
      oneOf: [
        {
          allOf: [
            ref('Error'),
            { type: 'object', required: ['reason'], properties: { reason: { enum: reasons } } },
          ],
        },
        ref('GatewayThrottled'),
      ],
    };
    const concurrent = reasons.includes('concurrent_streams') && !reasons.includes('rate_limit');
    example = {
      status: 'error',
      code: 429,
      message,
      reason: concurrent ? 'concurrent_streams' : 'rate_limit',
    };
  } else {
    schema = ref('Error');
    example = {
      status: 'error',
      code: status,
      message: status === 500 ? { code: 'INTERNAL', message } : message,
    };
  }
  const headers =
    status === 503
      ? RETRY_AFTER
      : status === 429 && entry.reasons?.includes('rate_limit')
        ? {
            ...RETRY_AFTER,
            RateLimit: {
              description: 'Budget left in this window (IETF RateLimit header)',
              schema: { type: 'string' },
            },
          }
        : status === 401
          ? {
              'WWW-Authenticate': {
                description:
                  'RFC 6750 challenge: `Bearer` when no token was sent; `Bearer error="invalid_token", error_description="..."` for an expired or invalid token (expired: refresh it with POST /auth/refresh); `error="invalid_request"` for a malformed Authorization header',
                schema: { type: 'string' },
              },
            }
          : undefined;
  return {
    description,
    ...(headers ? { headers } : {}),
    content: { 'application/json': { schema, example } },
  };
};

/** The success body: `data` (and `meta_data`) inside the contract's envelope. */
const successSchema = (c: Contract, spec: SuccessResponse, components: Components): Json => {
  const data = spec.data ? toSchema(spec.data, 'output', components) : {};
  if (c.envelope === 'none') return data;
  if (c.envelope === 'reactions') {
    return {
      type: 'object',
      required: ['success', 'data'],
      properties: { success: { const: true }, data },
      additionalProperties: false,
    };
  }
  return {
    type: 'object',
    required: ['status', 'data', ...(spec.meta ? ['meta_data'] : [])],
    properties: {
      status: { const: 'success' },
      message: { type: 'string', description: 'A short note for people, on some answers' },
      ...(spec.meta ? { meta_data: toSchema(spec.meta, 'output', components) } : {}),
      data,
    },
    additionalProperties: false,
  };
};

const successResponse = (c: Contract, spec: SuccessResponse, components: Components): Json => {
  const headers = spec.headers
    ? Object.fromEntries(
        Object.entries(spec.headers).map(([name, description]) => [
          name,
          { description, schema: { type: 'string' } },
        ]),
      )
    : undefined;
  const content = spec.text
    ? Object.fromEntries(spec.text.map((type) => [type, { schema: { type: 'string' } }]))
    : { 'application/json': { schema: successSchema(c, spec, components) } };
  return { description: spec.description, ...(headers ? { headers } : {}), content };
};

const responsesOf = (c: Contract, components: Components): Json => {
  const out: Json = {};
  const responses = c.responses();
  for (const status of [200, 201, 202] as const) {
    const spec = responses[status];
    if (spec) out[status] = successResponse(c, spec, components);
  }
  if (responses[204]) out['204'] = { description: responses[204].description };
  for (const entry of errorStatusesOf(c)) out[entry.status] = errorResponse(c, entry);
  return out;
};

const security = (c: Contract) =>
  c.auth === 'required' ? [{ bearer: [] }] : c.auth === 'optional' ? [{}, { bearer: [] }] : [];

const operationOf = (c: Contract, components: Components): Json => {
  const { request = {} } = c;
  return {
    operationId: c.operationId,
    summary: c.summary,
    description: c.description,
    tags: [c.tag],
    parameters: [
      ...parameters(request.path, 'path', components),
      ...parameters(request.query, 'query', components),
    ],
    ...(request.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: toSchema(request.body, 'input', components) } },
          },
        }
      : {}),
    responses: responsesOf(c, components),
    security: security(c),
  };
};

/** The OpenAPI document for `contracts`, with a description for each tag. */
export const buildDocument = (
  contracts: readonly Contract[],
  info: { version: string; description: string; tags: Readonly<Record<string, string>> },
): Json => {
  const components: Components = new Map();
  const paths: Record<string, Record<string, Json>> = {};
  for (const c of contracts) {
    if (c.path === '$default') continue;
    paths[c.path] ??= {};
    paths[c.path]![c.method.toLowerCase()] = operationOf(c, components);
  }
  const used = [...new Set(contracts.filter((c) => c.path !== '$default').map((c) => c.tag))];
  const missing = used.filter((tag) => !info.tags[tag]);
  if (missing.length > 0) throw new Error(`Tags without a description: ${missing.join(', ')}`);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Creator streaming platform API',
      version: info.version,
      description: info.description,
      // Private: no open-source licence. `LicenseRef-` is SPDX's form for a licence of one's own,
      // so the identifier is a valid SPDX expression (npm's `UNLICENSED` is not one).
      license: { name: 'Proprietary: all rights reserved', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/', description: 'This deployment (the API Gateway stage, or the local platform)' }],
    tags: used.map((name) => ({ name, description: info.tags[name] })),
    paths,
    components: {
      schemas: {
        ...SHARED_SCHEMAS,
        ...Object.fromEntries([...components].sort(([a], [b]) => a.localeCompare(b))),
      },
      securitySchemes: SECURITY_SCHEMES,
    },
  };
};
