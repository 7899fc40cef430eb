import * as z from 'zod/mini';
import { contract } from '../../shared/http/contract.ts';
import { described, named, responseSchemas, responsesNotBundled } from '../../shared/schema/schema-meta.ts';
import { enumParam } from '../../shared/schema/validation.ts';
import { identityResponses } from '../../shared/identity/schemas.ts';
import {
  SWAGGER_UI_ASSET_NAMES,
  SWAGGER_UI_FILES,
  SWAGGER_UI_VERSION,
} from '../../shared/openapi/reference-page.ts';

const tag = 'Platform';

// ---- Responses -------------------------------------------------------------------------------

/** The document's own schema, built on the first call (shared/schema/schema-meta.ts `responseSchemas`). */
const buildResponses = () => ({
  OpenApiDocument: named(
    'OpenApiDocument',
    z.looseObject({
      openapi: described(z.string(), 'OpenAPI version of the document', '3.1.0'),
      info: described(
        z.looseObject({
          title: described(z.string(), 'Name of the API', 'Creator streaming platform API'),
          version: described(z.string(), 'Version of the API', '0.1.0'),
        }),
        'Title, version and description of the API',
      ),
      paths: described(
        z.record(z.string(), z.unknown()),
        'The operations, by path (`/creators/{id}`) and method',
      ),
    }),
    'An OpenAPI 3.1 document (https://spec.openapis.org/oas/v3.1.0): this API, with components, tags and servers',
  ),
});
const platformResponses =
  process.env.LAMBDA_BUNDLE_RESPONSES === 'none' ? responsesNotBundled : responseSchemas(buildResponses);

const CACHED_5_MIN = 'Always `public, max-age=300`: clients and CDNs may reuse the answer for 5 minutes';

// ---- Contracts -------------------------------------------------------------------------------

export const getDocs = /* @__PURE__ */ contract({
  operationId: 'getDocs',
  method: 'GET',
  path: '/docs',
  handler: 'platform/get-docs',
  envelope: 'none',
  auth: 'none',
  tag,
  summary: 'Browsable API reference (Swagger UI over /openapi.json)',
  description:
    "The API reference as an HTML page for people: Swagger UI rendering `/openapi.json`, with \"Try it out\" against this deployment. Its scripts and styles are the pinned swagger-ui-dist, served by this API (`/docs/assets/{name}`), each checked by its Subresource Integrity hash: no third-party script runs on the page. It is sent with a strict Content-Security-Policy (`script-src 'self'`, `frame-ancestors 'none'`), `Referrer-Policy: no-referrer` and `nosniff`. Public, no envelope.",
  responses: () => ({
    200: { description: 'The HTML page (`text/html; charset=utf-8`)', text: ['text/html'] },
  }),
});

export const getDocsAsset = /* @__PURE__ */ (() =>
  contract({
    operationId: 'getDocsAsset',
    method: 'GET',
    path: '/docs/assets/{name}',
    handler: 'platform/get-docs-asset',
    envelope: 'none',
    auth: 'none',
    // Read at run time from the installed package: shipped in the function's bundle (infra/bundling.ts).
    files: SWAGGER_UI_FILES,
    tag,
    summary: "The API reference page's scripts and styles (the pinned swagger-ui-dist)",
    description: `Swagger UI's stylesheet and script for \`/docs\`, from the swagger-ui-dist ${SWAGGER_UI_VERSION} package this API ships, so the page loads no script from a third party. Public, no envelope; the page names them with their Subresource Integrity hashes and its version in the query.`,
    request: {
      path: z.object({
        name: described(
          enumParam('name', SWAGGER_UI_ASSET_NAMES),
          'The file: the stylesheet or the script',
          'swagger-ui-bundle.js',
        ),
      }),
    },
    responses: () => ({
      200: {
        description: 'The file (`text/css` or `text/javascript`, UTF-8)',
        text: ['text/css', 'text/javascript'],
        headers: {
          'cache-control': 'Always `public, max-age=31536000, immutable`: the URL names the version',
        },
      },
    }),
  }))();

export const getOpenapi = /* @__PURE__ */ contract({
  operationId: 'getOpenapi',
  method: 'GET',
  path: '/openapi.json',
  handler: 'platform/get-openapi',
  envelope: 'none',
  auth: 'none',
  tag,
  summary: 'This API as an OpenAPI 3.1 document (generated from the route table and zod schemas)',
  description:
    'This API as an OpenAPI 3.1 document: every operation with its parameters, bodies, responses and error statuses, generated at build time from the endpoint contracts. Public and served as is, without the success envelope; feed it to a client generator.',
  responses: () => ({
    200: {
      description: 'The document',
      data: platformResponses().OpenApiDocument,
      headers: { 'cache-control': CACHED_5_MIN },
    },
  }),
});

export const getJwks = /* @__PURE__ */ contract({
  operationId: 'getJwks',
  method: 'GET',
  path: '/.well-known/jwks.json',
  handler: 'platform/get-jwks',
  envelope: 'none',
  auth: 'none',
  needs: ['token-verifier'],
  tag,
  summary: 'Public keys (JWKS) that verify the access tokens this service issues',
  description:
    "The public half of the key that signs this service's access tokens, as a JSON Web Key Set (ES256, P-256), for clients and other services that verify tokens themselves: match the token header's `kid`. Public and served without the success envelope.",
  responses: () => ({
    200: {
      description: 'The key set',
      data: identityResponses().SigningJwks,
      headers: { 'cache-control': CACHED_5_MIN },
    },
  }),
});

export const notFound = /* @__PURE__ */ contract({
  operationId: 'notFound',
  method: 'ANY',
  path: '$default',
  handler: 'platform/not-found',
  auth: 'none',
  tag,
  summary: 'Catch-all: any request no route matches gets the 404 error envelope',
  description:
    'The gateway\'s catch-all route: a method and path no other operation matches is answered with the 404 error envelope, never with the gateway\'s own `{"message":"Not Found"}`, so clients see one error shape everywhere.',
  responses: () => ({
    404: {
      description: 'No route matches this method and path',
      message: 'No route matches this method and path',
    },
  }),
});

export const platformContracts = [getDocs, getDocsAsset, getOpenapi, getJwks, notFound] as const;
