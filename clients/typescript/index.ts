/**
 * The typed TypeScript client of the API: openapi-fetch over the types openapi-typescript
 * generates from docs/openapi.json (`schema.d.ts` beside this file; `npm run client:generate`,
 * which `npm run openapi` also runs). Paths, parameters, bodies and responses are all checked at
 * compile time (test/clients/doc-examples.types.ts compiles this example):
 *
 * ```ts
 * const api = createApiClient('http://127.0.0.1:3000');
 * const { data } = await api.GET('/creators', { params: { query: { limit: 5 } } });
 * data?.data.creators[0]?.subscribers_formatted; // string
 * ```
 */
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { components, operations, paths } from './schema.d.ts';

export type { components, operations, paths };
/** The document's named schemas (`Schemas['CreatorSummary']`). */
export type Schemas = components['schemas'];
export type ApiClient = Client<paths>;

export interface ApiClientOptions {
  /**
   * The access token sent as `Authorization: Bearer …`: a string, or a function asked before each
   * request (so a token obtained by signing in, or refreshed, is picked up). None: anonymous.
   */
  token?: string | (() => string | undefined | Promise<string | undefined>);
  /** Headers sent on every request. */
  headers?: Record<string, string>;
  /** A fetch of your own (tests, retries, instrumentation); the global one by default. */
  fetch?: (input: Request) => Promise<Response>;
}

/** Adds the bearer token, when there is one, to every request that does not set its own. */
const bearer = (token: NonNullable<ApiClientOptions['token']>): Middleware => ({
  async onRequest({ request }) {
    const value = typeof token === 'string' ? token : await token();
    if (value && !request.headers.has('authorization'))
      request.headers.set('authorization', `Bearer ${value}`);
    return request;
  },
});

/** A client of the API at `baseUrl` (the deployment's origin, e.g. `https://api.example.com`). */
export const createApiClient = (baseUrl: string, options: ApiClientOptions = {}): ApiClient => {
  const client = createClient<paths>({
    baseUrl,
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  if (options.token !== undefined) client.use(bearer(options.token));
  return client;
};
