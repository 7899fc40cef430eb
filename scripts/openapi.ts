/**
 * `npm run openapi`: writes docs/openapi.json from the endpoints' contracts (no handler is
 * imported). test/platform/openapi.test.ts fails when the committed file is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { apiDescription, routes, tagDescriptions } from '../functions/routes.ts';
import { buildDocument } from './openapi/build-document.ts';

const ROOT = resolve(import.meta.dirname, '..');
export const OPENAPI_FILE = resolve(ROOT, 'docs/openapi.json');

/** The document as text, exactly as committed. */
export const generateOpenApi = (): string => {
  const { version } = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { version: string };
  const document = buildDocument(routes, { version, description: apiDescription, tags: tagDescriptions });
  return `${JSON.stringify(document, null, 2)}\n`;
};

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  writeFileSync(OPENAPI_FILE, generateOpenApi());
  console.log(`wrote ${OPENAPI_FILE}`);
}
