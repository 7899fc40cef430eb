import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { matchRoute } from '../../scripts/local/server.ts';

/**
 * Checks a response the test client received against the committed OpenAPI document (the
 * operation's schema for that status, else its `default`), so the document cannot drift from
 * what the code answers. Returns a list of problems (empty when it conforms).
 */
const doc = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../docs/openapi.json'), 'utf8'));
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: false });
const validators = new Map<string, ReturnType<typeof ajv.compile>>();

export const responseProblems = (method: string, path: string, status: number, body: unknown): string[] => {
  const match = matchRoute(method, new URL(path, 'http://x').pathname);
  if (!match || match.row.path === '$default' || body === undefined) return [];
  const operation = doc.paths[match.row.path]?.[method.toLowerCase()];
  if (!operation) return [`${method} ${match.row.path} is not in docs/openapi.json (run npm run openapi)`];
  const response = operation.responses[String(status)] ?? operation.responses.default;
  const schema = response?.content?.['application/json']?.schema;
  if (!schema) return [];
  const key = `${method} ${match.row.path} ${status}`;
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile({ ...schema, components: doc.components });
    validators.set(key, validate);
  }
  return validate(body) ? [] : [`${key}: ${ajv.errorsText(validate.errors)}`];
};
