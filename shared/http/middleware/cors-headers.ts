import { CORS_HEADERS } from '../cors.ts';
import type { HttpMiddleware, HttpRequest, HttpResponse } from './state.ts';
import { withHeaders } from './state.ts';

/** `response` with the API's CORS headers (shared/http/cors.ts) under its own. */
export const withCors = (response: HttpResponse): HttpResponse => withHeaders(response, CORS_HEADERS);

const isPage = (response: HttpResponse) =>
  String(response.headers?.['content-type'] ?? '').startsWith('text/html');

const addCors = async (request: HttpRequest) => {
  // A page (the API reference) is navigated to, not fetched by a script: it carries none.
  if (request.response && !isPage(request.response)) request.response = withCors(request.response);
};

/**
 * Adds the CORS headers to every JSON and 204 answer, errors included. Not @middy/http-cors: it
 * writes canonical-case names (`Access-Control-Allow-Origin`) where every answer here has
 * lower-case ones, and takes its policy as options rather than from the one definition the local
 * gateway and the stack also read.
 */
export const corsHeaders = (): HttpMiddleware => ({ after: addCors, onError: addCors });
