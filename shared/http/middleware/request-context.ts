import type { RouteRow } from '../../routing/route.ts';
import {
  type HttpMiddleware,
  type HttpRequest,
  type HttpResponse,
  newState,
  stateOf,
  withHeaders,
} from './state.ts';

/** `response` carrying the request id, as every answer does (`x-request-id`). */
export const withRequestId = (response: HttpResponse, requestId: string): HttpResponse =>
  withHeaders(response, { 'x-request-id': requestId });

const addRequestId = async (request: HttpRequest) => {
  if (request.response) request.response = withRequestId(request.response, stateOf(request).requestId);
};

/**
 * First in the chain: gives the request its id, its endpoint's contract and the clock's now
 * (`context.http`), and sends the id back as `x-request-id` on every answer, success or error.
 */
export const requestContext = (route: RouteRow): HttpMiddleware => ({
  before: async (request) => {
    request.context.http = newState(route);
  },
  after: addRequestId,
  onError: addRequestId,
});
