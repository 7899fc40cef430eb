import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { routes } from '../../functions/routes.ts';
import { CORS_PREFLIGHT_HEADERS } from '../../shared/http/cors.ts';
import {
  errorResponse,
  type LambdaHandler,
  MAX_BODY_BYTES,
  MAX_RESPONSE_BYTES,
} from '../../shared/http/handler.ts';
import { NotFoundError, PayloadTooLargeError } from '../../shared/errors/errors.ts';
import { type RouteRow, routeKey } from '../../shared/routing/route.ts';
import { functionContext, installLocalAws, runAsFunction } from './aws.ts';

/**
 * The local API Gateway: serves every row of the route table over HTTP by turning requests into
 * HTTP API (payload v2) events for the same handler modules Lambda runs, each invocation with its
 * function's own environment and IAM policy (scripts/local/aws.ts).
 */
const FUNCTIONS_DIR = resolve(import.meta.dirname, '../../functions');

interface CompiledRoute {
  row: RouteRow;
  pattern: RegExp;
  params: string[];
  /** Static segments outrank parameters, as in API Gateway's route selection. */
  specificity: number;
}

const compile = (row: RouteRow): CompiledRoute => {
  const params: string[] = [];
  const segments = row.path.split('/').filter(Boolean);
  const source = segments
    .map((segment) => {
      const match = /^\{(\w+)\}$/.exec(segment);
      if (!match) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      params.push(match[1]!);
      return '([^/]+)';
    })
    .join('/');
  return {
    row,
    pattern: new RegExp(`^/${source}/?$`),
    params,
    specificity: segments.filter((s) => !s.startsWith('{')).length * 100 - params.length,
  };
};

const compiled = routes
  .filter((row) => row.path !== '$default')
  .map(compile)
  .sort((a, b) => b.specificity - a.specificity);
const fallback = routes.find((row) => row.path === '$default');
const modules = new Map<string, Promise<LambdaHandler>>();

/** A route's handler, imported once (by file URL: also from code Vite transforms, as the bench under a test). */
export const loadHandler = (row: RouteRow): Promise<LambdaHandler> => {
  let loaded = modules.get(row.handler);
  if (!loaded) {
    const url = pathToFileURL(join(FUNCTIONS_DIR, `${row.handler}.ts`)).href;
    loaded = import(url).then((mod: { handler: LambdaHandler }) => mod.handler);
    modules.set(row.handler, loaded);
  }
  return loaded;
};

const safeDecode = (value: string): string => {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
};

/** Resolves a method and path to a route row and its path parameters. */
export const matchRoute = (method: string, path: string) => {
  for (const route of compiled) {
    if (route.row.method !== method) continue;
    const match = route.pattern.exec(path);
    if (!match) continue;
    const pathParameters = Object.fromEntries(
      route.params.map((name, i) => [name, safeDecode(match[i + 1]!)]),
    );
    return { row: route.row, pathParameters };
  }
  return fallback ? { row: fallback, pathParameters: {} } : undefined;
};

const readBody = (req: IncomingMessage): Promise<Buffer | 'too-large'> =>
  new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        done('too-large');
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => done(Buffer.concat(chunks)));
    req.on('error', fail);
  });

/**
 * Request headers as API Gateway's HTTP API hands them to a function in payload format 2.0: "All
 * header names are lowercase", and "Duplicate headers are combined with commas" (no space:
 * `"header2": "value1,value2"`), per
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-develop-integrations-lambda.html.
 * Every event built here goes through it: the local server's, the tests' (`apiEvent`), the benches'.
 * So no function needs a header normalizer, and none may read a mixed-case name.
 */
export const apiGatewayHeaders = (
  headers: Record<string, string | readonly string[] | undefined>,
): Record<string, string> => {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const key = name.toLowerCase();
    const joined = typeof value === 'string' ? value : value.join(',');
    result[key] = key in result ? `${result[key]},${joined}` : joined;
  }
  return result;
};

/** Builds the API Gateway HTTP API v2 event for a request (headers as `apiGatewayHeaders` gives them). */
export const toEvent = (
  req: {
    method: string;
    url: URL;
    headers: Record<string, string | readonly string[] | undefined>;
    body: string | undefined;
    sourceIp?: string;
  },
  row: RouteRow,
  pathParameters: Record<string, string>,
): APIGatewayProxyEventV2 => {
  const query: Record<string, string> = {};
  for (const [name, value] of req.url.searchParams)
    query[name] = name in query ? `${query[name]},${value}` : value;
  const headers = apiGatewayHeaders(req.headers);
  const now = new Date();
  return {
    version: '2.0',
    routeKey: routeKey(row),
    rawPath: req.url.pathname,
    rawQueryString: req.url.search.slice(1),
    headers,
    queryStringParameters: Object.keys(query).length > 0 ? query : undefined,
    pathParameters: Object.keys(pathParameters).length > 0 ? pathParameters : undefined,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: req.url.host,
      domainPrefix: 'local',
      http: {
        method: req.method,
        path: req.url.pathname,
        protocol: 'HTTP/1.1',
        sourceIp: req.sourceIp ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: routeKey(row),
      stage: '$default',
      time: now.toISOString(),
      timeEpoch: now.getTime(),
    },
    body: req.body,
    isBase64Encoded: false,
  };
};

const send = (res: ServerResponse, result: APIGatewayProxyStructuredResultV2) => {
  res.writeHead(result.statusCode ?? 200, result.headers as Record<string, string>);
  // A base64 answer (a gzip-compressed one) is sent as the bytes it encodes, as API Gateway does.
  res.end(result.isBase64Encoded ? Buffer.from(result.body ?? '', 'base64') : (result.body ?? ''));
};

/**
 * What API Gateway sends when the function's answer is over Lambda's response limit (the invocation
 * fails with Function.ResponseSizeTooLarge): a 502 with its own body, the function's headers lost.
 */
const RESPONSE_TOO_LARGE: APIGatewayProxyStructuredResultV2 = {
  statusCode: 502,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ message: 'Internal Server Error' }),
};

/** The function's answer as API Gateway passes it on: `RESPONSE_TOO_LARGE` over Lambda's limit, as serialized. */
export const gatewayAnswer = (
  result: APIGatewayProxyStructuredResultV2,
): APIGatewayProxyStructuredResultV2 =>
  Buffer.byteLength(JSON.stringify(result)) > MAX_RESPONSE_BYTES ? RESPONSE_TOO_LARGE : result;

/**
 * The caller's address as API Gateway reports it: the connection's peer. `X-Forwarded-For` is
 * honoured only when the server was started behind a trusted proxy (`trustForwardedFor`: the
 * test harness, which plays many clients, or LOCAL_TRUST_FORWARDED_FOR=1), and only when its
 * first entry is a well-formed IP address; anything else is ignored, so a header cannot reset a
 * per-IP budget or smuggle an oversized key.
 */
export const clientIp = (req: IncomingMessage, trustForwardedFor: boolean): string => {
  const peer = req.socket.remoteAddress || '127.0.0.1';
  if (!trustForwardedFor) return peer;
  const forwarded = req.headers['x-forwarded-for'];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim() ?? '';
  return first.length <= 45 && isIP(first) !== 0 ? first : peer;
};

/** The request's URL. The Host header only names the domain when it is a valid authority. */
export const requestUrl = (req: IncomingMessage): URL => {
  const path = req.url?.startsWith('/') ? req.url : '/';
  const host = req.headers.host ?? '';
  try {
    if (/^[A-Za-z0-9.\-[\]:]{1,255}$/.test(host)) return new URL(path, `http://${host}`);
  } catch {
    // a malformed authority ([::1, a bare colon...): fall through to the server's own name
  }
  return new URL(path, 'http://127.0.0.1');
};

const handle = async (req: IncomingMessage, res: ServerResponse, trustForwardedFor: boolean) => {
  const url = requestUrl(req);
  const method = (req.method ?? 'GET').toUpperCase();
  if (method === 'OPTIONS') {
    res.writeHead(204, CORS_PREFLIGHT_HEADERS);
    res.end();
    return;
  }
  const match = matchRoute(method, url.pathname);
  const body = await readBody(req);
  if (body === 'too-large')
    return send(res, errorResponse(match?.row, new PayloadTooLargeError(MAX_BODY_BYTES), randomUUID()));
  if (!match)
    return send(
      res,
      errorResponse(undefined, new NotFoundError(`No route for ${method} ${url.pathname}`), randomUUID()),
    );
  const event = toEvent(
    {
      method,
      url,
      // Built from Node's `req.headersDistinct`, not `req.headers`: both have the names lower-cased
      // (as API Gateway's), but `req.headers` joins a repeated header with ', ' and keeps only the
      // first of a repeated `authorization`, `content-type`, `user-agent`...; API Gateway joins every
      // repeat with ',' (`apiGatewayHeaders`), so a second `authorization` reaches the function here too.
      headers: req.headersDistinct,
      body: body.length > 0 ? body.toString('utf8') : undefined,
      sourceIp: clientIp(req, trustForwardedFor),
    },
    match.row,
    match.pathParameters,
  );
  // Loaded and invoked as the route's function: module initialisation included, as on Lambda.
  const row = match.row;
  const { requestId } = event.requestContext;
  const result = await runAsFunction(
    functionContext(row),
    async () => (await loadHandler(row))(event, {}),
    requestId,
  );
  // API Gateway names the request in its answer (`apigw-requestid`), as here.
  const answer = gatewayAnswer(result);
  send(res, { ...answer, headers: { ...answer.headers, 'apigw-requestid': requestId } });
};

/**
 * Starts the local API on `port` (0 = any free port) and resolves with the server and its URL.
 * `trustForwardedFor`: take the client address from X-Forwarded-For (default: only with
 * LOCAL_TRUST_FORWARDED_FOR=1).
 */
export const startLocalApi = (
  port: number,
  host = '127.0.0.1',
  options: { trustForwardedFor?: boolean } = {},
): Promise<{ server: Server; url: string }> =>
  new Promise((done, fail) => {
    installLocalAws();
    const trust = options.trustForwardedFor ?? process.env.LOCAL_TRUST_FORWARDED_FOR === '1';
    const server = createServer((req, res) => {
      handle(req, res, trust).catch((error) => send(res, errorResponse(undefined, error, randomUUID())));
    });
    server.keepAliveTimeout = 5000;
    server.once('error', fail);
    server.listen(port, host, () => {
      const address = server.address();
      const actual = typeof address === 'object' && address ? address.port : port;
      done({ server, url: `http://${host}:${actual}` });
    });
  });
