import httpJsonBodyParser from '@middy/http-json-body-parser';
import { BadRequestError, UnsupportedMediaTypeError } from '../../errors/errors.ts';
import type { HttpMiddleware } from './state.ts';

/** `application/json` and `application/*+json`, with or without parameters (as middy's parser). */
const JSON_TYPE = /^application\/(.+\+)?json($|;.+)/;

// Our own content-type check runs first, so the parser's only failure left is malformed JSON.
// (`disableContentTypeCheck` is an option of the parser its type declarations do not list.)
type ParserOptions = Parameters<typeof httpJsonBodyParser>[0] & { disableContentTypeCheck?: boolean };
const options: ParserOptions = { disableContentTypeCheck: true };
const parser = httpJsonBodyParser(options);

/**
 * Parses a JSON body with @middy/http-json-body-parser, for endpoints that take a body and only
 * when one was sent. The two failures are told apart by their cause, not by middy's message
 * text (the parser throws 415 for both): a content type that is not JSON is checked here first
 * (415), so whatever the parser throws afterwards is a body that is not valid JSON (400).
 */
export const jsonBody = (takesBody: boolean): HttpMiddleware => ({
  before: async (request) => {
    const { body, headers } = request.event;
    if (!takesBody || body === undefined || body === null || body === '') return;
    const type = headers?.['content-type'];
    if (type === undefined || !JSON_TYPE.test(type)) throw new UnsupportedMediaTypeError();
    try {
      await parser.before?.(request as never);
    } catch {
      throw new BadRequestError('Malformed JSON body');
    }
  },
});
