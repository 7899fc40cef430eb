import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { matchRoute } from '../../scripts/local/server.ts';

/**
 * Checks a response against an OpenAPI document, strictly: the operation must document the
 * status it answered with (there is no `default`), with the content type it sent, and a JSON body
 * must match that status's schema; a 204 has no body. The integration tests' client runs every
 * response it receives through the committed document (`responseProblems`), so the document
 * cannot drift from what the code answers.
 */
type Json = Record<string, any>;

export const contractChecker = (doc: Json) => {
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: false });
  const validators = new Map<string, ReturnType<typeof ajv.compile>>();
  return (
    method: string,
    path: string,
    status: number,
    body: unknown,
    contentType = 'application/json',
  ): string[] => {
    const match = matchRoute(method, new URL(path, 'http://x').pathname);
    if (!match || match.row.path === '$default') return [];
    const key = `${method} ${match.row.path} ${status}`;
    const operation = doc.paths[match.row.path]?.[method.toLowerCase()];
    if (!operation) return [`${method} ${match.row.path} is not in the document (run npm run openapi)`];
    const response = operation.responses[String(status)];
    if (!response) {
      const documented = Object.keys(operation.responses).join(', ');
      return [`${key}: status ${status} is not documented (documented: ${documented})`];
    }
    const media = contentType.split(';')[0]!.trim();
    if (!response.content)
      return body === undefined || body === '' ? [] : [`${key}: documented without a body, got one`];
    const content = response.content[media];
    if (!content)
      return [
        `${key}: content type ${media} is not documented (${Object.keys(response.content).join(', ')})`,
      ];
    if (media !== 'application/json') return [];
    let validate = validators.get(key);
    if (!validate) {
      validate = ajv.compile({ ...content.schema, components: doc.components });
      validators.set(key, validate);
    }
    return validate(body) ? [] : [`${key}: ${ajv.errorsText(validate.errors)}`];
  };
};

const committed = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../docs/openapi.json'), 'utf8'));

/** Problems of one response against the committed docs/openapi.json (empty when it conforms). */
export const responseProblems = contractChecker(committed);
