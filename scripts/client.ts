/**
 * `npm run client:generate`: writes the TypeScript client's types (clients/typescript/schema.d.ts)
 * from docs/openapi.json with openapi-typescript, exactly as its CLI would
 * (`openapi-typescript docs/openapi.json -o clients/typescript/schema.d.ts`).
 * `npm run openapi` runs it after writing the document, and test/clients/typescript-schema.test.ts
 * fails when the committed file is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';

const ROOT = resolve(import.meta.dirname, '..');
/** Read from disk, not rebuilt: the client is generated from the document as published. */
const OPENAPI_FILE = resolve(ROOT, 'docs/openapi.json');
export const CLIENT_SCHEMA_FILE = resolve(ROOT, 'clients/typescript/schema.d.ts');

/** The client's types as text, from the document as it is on disk. */
export const generateClientSchema = async (
  document = readFileSync(OPENAPI_FILE, 'utf8'),
): Promise<string> => {
  const ast = await openapiTS(JSON.parse(document) as OpenAPI3, { silent: true });
  return `${COMMENT_HEADER}${astToString(ast)}`;
};

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  writeFileSync(CLIENT_SCHEMA_FILE, await generateClientSchema());
  console.log(`wrote ${CLIENT_SCHEMA_FILE}`);
}
