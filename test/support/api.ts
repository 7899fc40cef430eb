import { inject } from 'vitest';
import { awsCallsOf, currentRequestId, recordAwsCalls } from '../../scripts/local/aws.ts';
import { startLocalApi } from '../../scripts/local/server.ts';
import { dynamo } from '../../shared/db/client.ts';
import { TABLE } from '../../shared/db/table.ts';
import { atFileEnd } from './integration-file.ts';
import { connectTestWebhooks, disconnectTestWebhooks } from './payments.ts';
import { responseProblems } from './openapi-validator.ts';

/** A response as a client sees it. `body` is parsed JSON (or undefined for an empty body). */
export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  body?: unknown;
  /** Raw body text, sent as is (for malformed-JSON tests). */
  rawBody?: string;
  token?: string;
  headers?: Record<string, string>;
}

export interface TestApi {
  url: string;
  /** When the demo catalogue was generated (its `now`). */
  seededAt: Date;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  get<T = any>(path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  post<T = any>(path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  put<T = any>(path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  patch<T = any>(path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  delete<T = any>(path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
}

let started: Promise<TestApi> | undefined;

const octet = () => Math.floor(Math.random() * 250);
/**
 * Options for a request from a fresh client address (X-Forwarded-For, which the test gateway
 * trusts), so per-IP budgets never couple one scenario to another.
 */
export const fromNewAddress = (options: RequestOptions = {}): RequestOptions => ({
  ...options,
  headers: { 'x-forwarded-for': `10.${octet()}.${octet()}.${octet()}`, ...options.headers },
});

/** Every DynamoDB command sent by request code in this worker, by name (e.g. `QueryCommand`). */
export const dynamoCalls: string[] = [];

const WRITES = new Set([
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'BatchWriteItemCommand',
  'TransactWriteItemsCommand',
  'PutCommand',
  'UpdateCommand',
  'DeleteCommand',
  'BatchWriteCommand',
  'TransactWriteCommand',
]);
/** Every write DynamoDB accepted from this worker, as `<command>:<partition key>` (fuzz tests check rejected requests write nothing). */
export const dynamoWrites: string[] = [];
const writesByRequest = new Map<string, string[]>();
/**
 * The writes (as in `dynamoWrites`) made for one request: the invocation the local gateway made
 * for it and any it started (scripts/local/aws.ts `currentRequestId`). `requestId` is the answer's
 * `apigw-requestid` header. Correct when requests run side by side, unlike a slice of
 * `dynamoWrites`.
 */
export const writesOf = (requestId: string | null): string[] => {
  if (!requestId) throw new Error('The answer names no request (apigw-requestid): its writes are unknown');
  return writesByRequest.get(requestId) ?? [];
};

const callsByRequest = new Map<string, string[]>();
/**
 * The DynamoDB commands sent for one request (as `writesOf` finds its writes), by name, in the
 * order sent, whatever they found: the work a route did, e.g. to compare two answers' work.
 */
export const callsOf = (requestId: string | null): string[] => {
  if (!requestId) throw new Error('The answer names no request (apigw-requestid): its calls are unknown');
  return callsByRequest.get(requestId) ?? [];
};

/**
 * The AWS calls (every service) the route's own function made for one request, as
 * `<service>:<command>` in the order sent (scripts/local/aws.ts `awsCallsOf`; calls by a queue's
 * consumer it started are left out): e.g. that an answer sent no mail inline.
 */
export const routeAwsCallsOf = (requestId: string | null, route: string): string[] => {
  if (!requestId) throw new Error('The answer names no request (apigw-requestid): its calls are unknown');
  return awsCallsOf(requestId)
    .filter((call) => call.startsWith(`${route} `))
    .map((call) => call.slice(route.length + 1));
};

const readsByRequest = new Map<string, string[]>();
/**
 * The items DynamoDB returned for one request (as `writesOf` finds its writes), each as
 * `<command>:<entity>` (`?` for an item without one), e.g. `QueryCommand:show`: what a route reads,
 * item by item (DynamoDB charges by the size of the items read, whatever a projection keeps).
 */
export const itemsReadOf = (requestId: string | null): string[] => {
  if (!requestId) throw new Error('The answer names no request (apigw-requestid): its reads are unknown');
  return readsByRequest.get(requestId) ?? [];
};

type ReadOutput = {
  Item?: Record<string, unknown>;
  Items?: Record<string, unknown>[];
  Responses?: Record<string, Record<string, unknown>[]>;
};
const entityOf = (item: Record<string, unknown>) => (item.entity as { S?: string } | undefined)?.S ?? '?';

/**
 * The data model promises no Scan on any request path: every integration test fails if one is
 * sent. Also records each command so tests can assert how many calls an endpoint makes.
 */
const guardScans = () => {
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      const name = String(context.commandName);
      const input = args.input as {
        Key?: Record<string, unknown>;
        Item?: Record<string, unknown>;
        TransactItems?: unknown[];
      };
      const pk = (v: unknown) => (typeof v === 'string' ? v : (v as { S?: string } | undefined)?.S);
      dynamoCalls.push(name);
      const caller = currentRequestId();
      if (caller) callsByRequest.set(caller, [...(callsByRequest.get(caller) ?? []), name]);
      if (name === 'ScanCommand') throw new Error('Scan on a request path: the data model forbids it');
      const result = await next(args);
      const request = currentRequestId();
      const output = result.output as ReadOutput;
      const read = [
        ...(output.Item ? [output.Item] : []),
        ...(output.Items ?? []),
        ...Object.values(output.Responses ?? {}).flat(),
      ];
      if (request && read.length > 0) {
        const reads = readsByRequest.get(request) ?? [];
        reads.push(...read.map((item) => `${name}:${entityOf(item)}`));
        readsByRequest.set(request, reads);
      }
      // Recorded only once DynamoDB accepted it: a cancelled conditional write wrote nothing.
      if (WRITES.has(name)) {
        const partition = TABLE.partitionKey;
        const write = `${name}:${pk(input.Key?.[partition]) ?? pk(input.Item?.[partition]) ?? (input.TransactItems ? 'TRANSACTION' : '?')}`;
        dynamoWrites.push(write);
        if (request) {
          const writes = writesByRequest.get(request);
          if (writes) writes.push(write);
          else writesByRequest.set(request, [write]);
        }
      }
      return result;
    },
    { step: 'initialize', name: 'scanGuard' },
  );
};

/**
 * The local server (real handlers, real DynamoDB Local seeded by test/global-setup.ts) on a free
 * port in this test worker, shared by the worker's tests.
 */
export const testApi = (): Promise<TestApi> => {
  started ??= startLocalApi(0, '127.0.0.1', { trustForwardedFor: true }).then(async ({ url }) => {
    guardScans();
    recordAwsCalls();
    // Stripe (the stand-in global-setup started) delivers to this API's webhook routes, as npm start's.
    await connectTestWebhooks(url);
    // The stand-in is the run's, shared by every file: when this file (and its process, with this
    // API) ends, its endpoints go, or every later event of the run is sent to them and retried.
    atFileEnd(() => disconnectTestWebhooks(url));
    const request = async <T>(
      method: string,
      path: string,
      options: RequestOptions = {},
    ): Promise<ApiResponse<T>> => {
      const headers: Record<string, string> = { ...options.headers };
      let body: string | undefined = options.rawBody;
      if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
      }
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      const response = await fetch(`${url}${path}`, { method, headers, body });
      const text = await response.text();
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = text;
      }
      const contentType = response.headers.get('content-type') ?? '';
      const problems = responseProblems(method, path, response.status, parsed, contentType || undefined);
      if (problems.length > 0)
        throw new Error(`Response does not match docs/openapi.json: ${problems.join('; ')}`);
      return { status: response.status, headers: response.headers, body: parsed as T };
    };
    return {
      url,
      seededAt: new Date(inject('seededAt')),
      request,
      get: (path, options) => request('GET', path, options),
      post: (path, options) => request('POST', path, options),
      put: (path, options) => request('PUT', path, options),
      patch: (path, options) => request('PATCH', path, options),
      delete: (path, options) => request('DELETE', path, options),
    };
  });
  return started;
};
