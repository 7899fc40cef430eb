import { recordRequest } from '../../observability/index.ts';
import { type HttpMiddleware, type HttpRequest, stateOf } from './state.ts';

const record = async (request: HttpRequest) => {
  // An error no middleware answered propagates unanswered, and unlogged here, as before.
  if (!request.response) return;
  const state = stateOf(request);
  recordRequest({
    requestId: state.requestId,
    route: request.event.routeKey,
    status: request.response.statusCode ?? 200,
    latencyMs: performance.now() - state.startedAt,
    accountId: state.principal?.accountId,
    errorCode: state.errorCode,
  });
};

/**
 * Logs one line per request (id, route, status, latency, account, error code; never a token or a
 * body) and publishes the request and error metrics, once the answer is final: its `after` and
 * `onError` run last because it is used right after `requestContext()`.
 */
export const requestLog = (): HttpMiddleware => ({ after: record, onError: record });
