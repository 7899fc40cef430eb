import * as z from 'zod/mini';
import type { EndpointSchemas } from '../http/handler.ts';
import type { RouteRow } from '../http/route.ts';

/**
 * Builds the OpenAPI 3.1 document from the route table and each handler's zod schemas: nothing
 * is written by hand. Run at build time (`npm run openapi` → docs/openapi.json); the
 * `/openapi.json` route serves that file.
 */
type Json = Record<string, unknown>;

const toSchema = (schema: z.ZodMiniType): Json =>
  z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as Json;

const stripMeta = ({ $schema: _s, ...rest }: Json): Json => rest;

const parameters = (schema: z.ZodMiniType | undefined, where: 'query' | 'path'): Json[] => {
  if (!schema) return [];
  const json = stripMeta(toSchema(schema));
  const props = (json.properties ?? {}) as Record<string, Json>;
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries(props).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || (required.has(name) && property.default === undefined),
    schema: property,
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
  }));
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const jsonContent = (schema: Json) => ({ 'application/json': { schema } });

const COMPONENTS = {
  schemas: {
    Error: {
      type: 'object',
      required: ['status', 'code', 'message'],
      properties: {
        status: { const: 'error' },
        code: { type: 'integer', description: 'Equals the HTTP status' },
        message: {
          oneOf: [
            { type: 'string' },
            { type: 'object', properties: { code: { const: 'INTERNAL' }, message: { type: 'string' } } },
          ],
        },
        reason: {
          enum: ['rate_limit', 'concurrent_streams'],
          description:
            'On 429 only: `rate_limit` (wait for Retry-After) or `concurrent_streams` (end another watch session first)',
        },
      },
    },
    ValidationError: {
      type: 'object',
      required: ['status', 'code', 'errors'],
      properties: {
        status: { const: 'error' },
        code: { const: 422 },
        errors: {
          type: 'array',
          items: {
            type: 'object',
            required: ['field', 'message'],
            properties: { field: { type: 'string' }, message: { type: 'string' } },
          },
        },
      },
    },
    ReactionsError: {
      type: 'object',
      required: ['success', 'error', 'requestId'],
      properties: {
        success: { const: false },
        error: {
          type: 'object',
          required: ['code', 'message'],
          properties: { code: { type: 'string' }, message: { type: 'string' } },
        },
        requestId: { type: 'string', format: 'uuid' },
      },
    },
    Pagination: {
      type: 'object',
      properties: {
        total: { type: 'integer' },
        page: { type: 'integer' },
        limit: { type: 'integer' },
        total_pages: { type: 'integer' },
      },
    },
  },
  securitySchemes: {
    bearer: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description: 'Access token from sign-up, sign-in or refresh (15 minutes)',
    },
  },
};

const successSchema = (row: RouteRow, data: Json): Json =>
  row.envelope === 'none'
    ? data
    : row.envelope === 'reactions'
      ? { type: 'object', required: ['success', 'data'], properties: { success: { const: true }, data } }
      : {
          type: 'object',
          required: ['status', 'data'],
          properties: {
            status: { const: 'success' },
            data,
            meta_data: { type: 'object' },
            message: { type: 'string' },
          },
        };

const errorResponses = (row: RouteRow): Json => {
  const error = row.envelope === 'reactions' ? ref('ReactionsError') : ref('Error');
  const validation = row.envelope === 'reactions' ? ref('ReactionsError') : ref('ValidationError');
  const out: Json = {
    '400': { description: 'Invalid query or path parameter, or malformed JSON', content: jsonContent(error) },
    '404': { description: 'Not found', content: jsonContent(error) },
    '500': { description: 'Internal error (nothing internal disclosed)', content: jsonContent(error) },
    '503': {
      description: 'A dependency is throttling or failing; retry after Retry-After',
      content: jsonContent(error),
      headers: { 'Retry-After': { schema: { type: 'integer' } } },
    },
  };
  if (row.auth !== 'none')
    out['401'] = { description: 'Missing or invalid bearer token', content: jsonContent(error) };
  if (row.method !== 'GET') {
    out['413'] = { description: 'Body over 256 KiB', content: jsonContent(error) };
    out['415'] = { description: 'Body is not application/json', content: jsonContent(error) };
    out['422'] = { description: 'Body failed validation', content: jsonContent(validation) };
  }
  if (row.rateLimit) {
    out['429'] = {
      description: `Rate limited (${row.rateLimit.limit} per ${row.rateLimit.windowSeconds} s per ${row.rateLimit.by})`,
      content: jsonContent(error),
      headers: { 'Retry-After': { schema: { type: 'integer' } }, RateLimit: { schema: { type: 'string' } } },
    };
  }
  return out;
};

/** The OpenAPI document for `rows`, given each row's handler schemas. */
export const buildDocument = (
  rows: readonly RouteRow[],
  schemasOf: (row: RouteRow) => EndpointSchemas<z.ZodMiniType, z.ZodMiniType, z.ZodMiniType>,
  info: { version: string },
): Json => {
  const paths: Record<string, Record<string, Json>> = {};
  for (const row of rows) {
    if (row.path === '$default') continue;
    const schemas = schemasOf(row);
    const operation: Json = {
      operationId: row.handler.split('/')[1]!.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase()),
      summary: row.summary,
      tags: [row.tag],
      parameters: [...parameters(schemas.path, 'path'), ...parameters(schemas.query, 'query')],
      ...(schemas.body
        ? { requestBody: { required: true, content: jsonContent(stripMeta(toSchema(schemas.body))) } }
        : {}),
      responses: {
        [row.method === 'DELETE' && row.envelope === 'reactions' ? '204' : '200']:
          row.method === 'DELETE' && row.envelope === 'reactions'
            ? { description: 'Done, no body' }
            : {
                description: 'Success',
                content: jsonContent(
                  successSchema(row, schemas.response ? stripMeta(toSchema(schemas.response)) : {}),
                ),
              },
        ...errorResponses(row),
      },
      ...(row.auth === 'required'
        ? { security: [{ bearer: [] }] }
        : row.auth === 'optional'
          ? { security: [{}, { bearer: [] }] }
          : {}),
      'x-handler': `functions/${row.handler}.ts`,
    };
    paths[row.path] ??= {};
    paths[row.path]![row.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Creator streaming platform API',
      version: info.version,
      description: "Generated from the route table and the handlers' zod schemas. Envelopes: spec 2.1.",
    },
    servers: [{ url: '/' }],
    tags: [...new Set(rows.filter((r) => r.path !== '$default').map((r) => r.tag))].map((name) => ({ name })),
    paths,
    components: COMPONENTS,
  };
};
