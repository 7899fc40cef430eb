import type { HttpMiddleware, HttpRequest } from './state.ts';
import { withHeaders } from './state.ts';

/**
 * Response headers of every answer (issue 33): `X-Content-Type-Options: nosniff` on all of them;
 * and `Cache-Control: no-store` on every answer that may carry a secret or personal data, that is
 * every answer of a route that requires a token and every answer to a request that sent a valid
 * one (personalised), unless the handler set its own `cache-control`. Public answers keep theirs.
 */
const addSecurityHeaders = async (request: HttpRequest) => {
  const response = request.response;
  if (!response) return;
  const state = request.context.http;
  const personal = state?.route?.auth === 'required' || state?.principal !== undefined;
  request.response = withHeaders(response, {
    'x-content-type-options': 'nosniff',
    ...(personal ? { 'cache-control': 'no-store' } : {}),
  });
};

/** Adds the headers above to every answer, errors included. */
export const securityHeaders = (): HttpMiddleware => ({
  after: addSecurityHeaders,
  onError: addSecurityHeaders,
});
