import * as z from 'zod/mini';

/**
 * Documentation on a schema, kept in zod's metadata so the OpenAPI document (and the clients
 * generated from it) carry it: what a field means and an example taken from the demo data.
 */
export const described = <S extends z.ZodMiniType>(schema: S, description: string, example?: unknown): S =>
  schema.check(z.meta({ description, ...(example === undefined ? {} : { examples: [example] }) })) as S;

/**
 * A schema with a name: it becomes `components.schemas.<id>` in the document, and a named type
 * in generated clients. Each id is registered once (zod's global registry refuses a second).
 */
export const named = <S extends z.ZodMiniType>(id: string, schema: S, description: string): S => {
  z.globalRegistry.add(schema, { id, description });
  return schema;
};
