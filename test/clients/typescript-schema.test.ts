import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLIENT_SCHEMA_FILE, generateClientSchema } from '../../scripts/client.ts';

describe('the TypeScript client', () => {
  it('has its types generated from the committed docs/openapi.json (run npm run client:generate)', async () => {
    expect(readFileSync(CLIENT_SCHEMA_FILE, 'utf8')).toBe(await generateClientSchema());
  }, 60_000);
});
