import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { routesByKey } from '../../functions/routes.ts';
import { apiGatewayHeaders, toEvent } from '../../scripts/local/server.ts';

/**
 * An API Gateway HTTP API v2 event for calling a handler directly in a unit test, as API Gateway
 * would build it: `headers` may be given in any case, the event has them lower-cased.
 * `route` is the route key (`GET /creators/{id}`), `path` the concrete path.
 */
export const apiEvent = (options: {
  route: string;
  path?: string;
  query?: Record<string, string>;
  pathParameters?: Record<string, string>;
  body?: unknown;
  rawBody?: string;
  token?: string;
  headers?: Record<string, string>;
}): APIGatewayProxyEventV2 => {
  const row = routesByKey.get(options.route);
  if (!row) throw new Error(`No route ${options.route} in the route table`);
  const url = new URL(`http://127.0.0.1${options.path ?? row.path}`);
  for (const [name, value] of Object.entries(options.query ?? {})) url.searchParams.set(name, value);
  // Names lower-cased and repeats comma-joined as API Gateway does (`apiGatewayHeaders`, which cites
  // AWS's payload format 2.0 documentation), before the defaults below are added.
  const headers = apiGatewayHeaders(options.headers ?? {});
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  return toEvent({ method: row.method, url, headers, body }, row, options.pathParameters ?? {});
};
