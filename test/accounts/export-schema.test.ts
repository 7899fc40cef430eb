import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXPORT_SCHEMA_FILE, exportSchemaText } from '../../scripts/export-schema.ts';

describe('docs/export.schema.json', () => {
  it('is the export document schema as generated (npm run export:schema)', () => {
    expect(readFileSync(EXPORT_SCHEMA_FILE, 'utf8')).toBe(exportSchemaText());
  });
});
