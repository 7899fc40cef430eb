/**
 * `npm run openapi`: writes docs/openapi.json from the route table and the handlers' schemas.
 * test/platform/openapi.test.ts fails when the committed file is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { routes } from '../functions/routes.ts';
import type { LambdaHandler } from '../shared/http/handler.ts';
import { buildDocument } from '../shared/openapi/build-document.ts';

const ROOT = resolve(import.meta.dirname, '..');
export const OPENAPI_FILE = resolve(ROOT, 'docs/openapi.json');

/** The document as text, exactly as committed. */
export const generateOpenApi = async (): Promise<string> => {
  const handlers = new Map<string, LambdaHandler>();
  for (const row of routes) {
    const mod = (await import(resolve(ROOT, 'functions', `${row.handler}.ts`))) as { handler: LambdaHandler };
    handlers.set(row.handler, mod.handler);
  }
  const { version } = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { version: string };
  return `${JSON.stringify(
    buildDocument(routes, (row) => handlers.get(row.handler)!.schemas, { version }),
    null,
    2,
  )}\n`;
};

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  writeFileSync(OPENAPI_FILE, await generateOpenApi());
  console.log(`wrote ${OPENAPI_FILE}`);
}
