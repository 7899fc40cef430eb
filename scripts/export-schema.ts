/**
 * `npm run export:schema`: writes docs/export.schema.json, the JSON Schema (draft 2020-12) of the
 * account export document, from its zod schema (shared/accounts/export-schema.ts), which also
 * checks every document the worker writes. test/accounts/export-schema.test.ts fails when the
 * committed file is stale.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import * as z from 'zod/mini';
import { ExportDocument } from '../shared/accounts/export-schema.ts';

export const EXPORT_SCHEMA_FILE = resolve(import.meta.dirname, '../docs/export.schema.json');

/** The document as committed. */
export const exportSchemaText = (): string => {
  const { $schema, ...schema } = z.toJSONSchema(ExportDocument, {
    io: 'output',
    target: 'draft-2020-12',
  }) as Record<string, unknown>;
  const document = {
    $schema,
    $id: 'https://creators.example.com/schemas/account-export.json',
    title: 'Account export',
    description:
      'Everything the platform keeps about one account (GET /me/export; docs/accounts.md "Export").',
    ...schema,
  };
  return `${JSON.stringify(document, null, 2)}\n`;
};

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  writeFileSync(EXPORT_SCHEMA_FILE, exportSchemaText());
  console.log(`wrote ${EXPORT_SCHEMA_FILE}`);
}
