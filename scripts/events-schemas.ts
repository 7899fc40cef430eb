/**
 * `npm run events:schemas`: writes docs/events/<type>.json, the JSON Schema (draft 2020-12) of
 * each event type, from the catalogue's zod schemas (shared/events/catalog.ts). The same schemas
 * check every event before it is put, so the documents cannot drift from what is published.
 * test/events/schemas.test.ts fails when a committed file is stale.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as z from 'zod/mini';
import { EVENT_DESCRIPTIONS, eventSchemaOf } from '../shared/events/catalog.ts';
import { EVENT_SOURCE, EVENT_TYPE_NAMES, EVENT_TYPES } from '../shared/events/envelope.ts';

export const EVENT_SCHEMAS_DIR = resolve(import.meta.dirname, '../docs/events');

/** Each type's document, by file name, exactly as committed. */
export const generateEventSchemas = (): Record<string, string> =>
  Object.fromEntries(
    EVENT_TYPE_NAMES.map((type) => {
      const { $schema, ...schema } = z.toJSONSchema(eventSchemaOf(type), {
        io: 'output',
        target: 'draft-2020-12',
      }) as Record<string, unknown>;
      const document = {
        $schema,
        $id: `https://creators.example.com/schemas/events/${type}.json`,
        title: type,
        description: `${EVENT_DESCRIPTIONS[type]} Visibility: ${EVENT_TYPES[type]}. On EventBridge: source \`${EVENT_SOURCE}\`, detail-type \`${type}\`, this document as \`detail\`.`,
        ...schema,
      };
      return [`${type}.json`, `${JSON.stringify(document, null, 2)}\n`];
    }),
  );

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const documents = generateEventSchemas();
  mkdirSync(EVENT_SCHEMAS_DIR, { recursive: true });
  for (const name of readdirSync(EVENT_SCHEMAS_DIR))
    if (name.endsWith('.json') && !(name in documents)) rmSync(join(EVENT_SCHEMAS_DIR, name));
  for (const [name, text] of Object.entries(documents)) writeFileSync(join(EVENT_SCHEMAS_DIR, name), text);
  console.log(`wrote ${Object.keys(documents).length} schemas to ${EVENT_SCHEMAS_DIR}`);
}
