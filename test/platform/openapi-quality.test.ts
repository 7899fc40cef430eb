import { describe, expect, it } from 'vitest';
import { routes } from '../../functions/routes.ts';
import { generateOpenApi } from '../../scripts/openapi.ts';

/**
 * What a client developer needs from the API document (issue 15), checked on the document the
 * contracts build now: a description on every operation that says more than its summary, one on
 * every parameter, a typed `data` in every 2xx JSON body, `security: []` on public operations,
 * patterns every generator can compile. Prints how many success bodies are typed.
 */
type Json = Record<string, any>;
const doc = JSON.parse(generateOpenApi()) as Json;

interface Operation {
  key: string;
  operationId: string;
  op: Json;
}
const operations: Operation[] = Object.entries(doc.paths as Record<string, Json>).flatMap(([path, ops]) =>
  Object.entries(ops).map(([method, op]) => ({
    key: `${method.toUpperCase()} ${path}`,
    operationId: op.operationId as string,
    op: op as Json,
  })),
);

/** `$ref`s followed into components. */
const resolve = (schema: Json | undefined): Json | undefined => {
  if (!schema?.$ref) return schema;
  return resolve(doc.components.schemas[String(schema.$ref).split('/').pop()!]);
};
const isEmpty = (schema: Json | undefined) => !schema || Object.keys(schema).length === 0;

/** Paths inside `schema` that accept anything (`{}`: zod's `unknown`), followed through `$ref`s. */
const looseParts = (schema: Json | undefined, at: string, seen = new Set<string>()): string[] => {
  if (schema === undefined) return [];
  if (isEmpty(schema)) return [at];
  if (schema.$ref) {
    if (seen.has(schema.$ref)) return [];
    return looseParts(resolve(schema), at, new Set([...seen, schema.$ref]));
  }
  const out: string[] = [];
  for (const [name, sub] of Object.entries((schema.properties ?? {}) as Record<string, Json>))
    out.push(...looseParts(sub, `${at}.${name}`, seen));
  if (schema.items) out.push(...looseParts(schema.items, `${at}[]`, seen));
  if (typeof schema.additionalProperties === 'object')
    out.push(...looseParts(schema.additionalProperties, `${at}{}`, seen));
  for (const keyword of ['anyOf', 'oneOf', 'allOf'])
    for (const [i, sub] of ((schema[keyword] ?? []) as Json[]).entries())
      out.push(...looseParts(sub, `${at}(${keyword}[${i}])`, seen));
  return out;
};

/**
 * Operations whose success body is open by design, with why: checked for a non-empty schema only.
 */
const OPEN_BY_DESIGN: Record<string, string> = {
  getOpenapi: 'the body is an OpenAPI document, whose shape the OpenAPI 3.1 specification defines',
};

/** The success bodies of JSON 2xx responses: what clients get as `data` (or the whole body). */
const successBodies = (o: Operation) =>
  Object.entries((o.op.responses ?? {}) as Record<string, Json>)
    .filter(([status, r]) => status.startsWith('2') && r.content?.['application/json'])
    .map(([status, r]) => {
      const schema = r.content['application/json'].schema as Json;
      const enveloped = schema.properties?.data !== undefined && schema.properties?.status !== undefined;
      const reactions = schema.properties?.success !== undefined && schema.properties?.data !== undefined;
      return {
        at: `${o.key} ${status}`,
        data: enveloped || reactions ? (schema.properties.data as Json) : schema,
        meta: schema.properties?.meta_data as Json | undefined,
      };
    });

describe('the API document, as a client developer reads it', () => {
  it('describes every operation in more words than its summary', () => {
    const bad = operations
      .filter(({ op }) => !op.description?.trim() || op.description.trim() === op.summary?.trim())
      .map((o) => o.key);
    expect(bad).toEqual([]);
  });

  it('describes every parameter', () => {
    const bad = operations.flatMap((o) =>
      ((o.op.parameters ?? []) as Json[])
        .filter((p) => !String(p.description ?? '').trim())
        .map((p) => `${o.key} ${p.in}:${p.name}`),
    );
    expect(bad).toEqual([]);
  });

  it('types the data of every 2xx JSON response (no `{}` anywhere in it)', () => {
    const looseIn = (o: Operation) =>
      successBodies(o).flatMap(({ at, data, meta }) =>
        OPEN_BY_DESIGN[o.operationId]
          ? isEmpty(resolve(data))
            ? [`${at} data`]
            : []
          : [...looseParts(data, `${at} data`), ...looseParts(meta, `${at} meta_data`)],
      );
    const loose = operations.flatMap(looseIn);
    const withBody = operations.filter((o) => successBodies(o).length > 0);
    const typed = withBody.filter((o) => looseIn(o).length === 0);
    console.log(
      `Typed success bodies: ${typed.length} of ${withBody.length} operations with a JSON success body ` +
        `(${operations.length} operations; the other ${operations.length - withBody.length} answer 204 or HTML)`,
    );
    expect(loose).toEqual([]);
  });

  it('marks public operations `security: []` and the others with the bearer scheme', () => {
    const auth = new Map(routes.map((r) => [r.operationId, r.auth]));
    const bad = operations.flatMap((o) => {
      const kind = auth.get(o.operationId);
      const expected = kind === 'none' ? [] : kind === 'required' ? [{ bearer: [] }] : [{}, { bearer: [] }];
      return JSON.stringify(o.op.security) === JSON.stringify(expected)
        ? []
        : [`${o.key} (auth ${kind}): ${JSON.stringify(o.op.security)}`];
    });
    expect(bad).toEqual([]);
  });

  it('has patterns any generator can compile (ECMA-262 without the u flag, as Spectral checks)', () => {
    const bad: string[] = [];
    JSON.stringify(doc, (key, value) => {
      if (key === 'pattern' && typeof value === 'string') {
        try {
          new RegExp(value);
        } catch (error) {
          bad.push(`${value}: ${(error as Error).message}`);
        }
      }
      return value;
    });
    expect(bad).toEqual([]);
  });

  it('publishes nothing internal (no handler paths, no x- extensions)', () => {
    const text = JSON.stringify(doc);
    expect(text).not.toMatch(/"x-[a-z-]+":/);
    expect(text).not.toMatch(/functions\/[a-z-]+\/[a-z-]+\.ts/);
  });
});
