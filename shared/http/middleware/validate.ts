import type { RequestSchemas } from '../contract.ts';
import { parseBody, parseParams } from '../../schema/validation.ts';
import { type HttpMiddleware, stateOf } from './state.ts';

/**
 * Validates the request against the endpoint's zod schemas, in this order: query (400), path
 * (400), then the parsed body (422 with `errors: [{field, message}]`), and keeps the schemas'
 * outputs as the handler's input. Last of the `before` steps: nothing is validated for a request
 * already refused for its size, its token or its rate.
 */
export const validate = (schemas: RequestSchemas): HttpMiddleware => ({
  before: async (request) => {
    const { event } = request;
    const query = schemas.query
      ? parseParams(schemas.query, event.queryStringParameters ?? {}, 'query')
      : undefined;
    const path = schemas.path ? parseParams(schemas.path, event.pathParameters ?? {}, 'path') : undefined;
    const body = schemas.body ? parseBody(schemas.body, event.body) : undefined;
    stateOf(request).input = { query, path, body };
  },
});
