import type { RouteRow } from '../../shared/http/route.ts';

const tag = 'Platform';

export const platformRoutes: RouteRow[] = [
  {
    method: 'GET',
    path: '/docs',
    handler: 'platform/get-docs',
    envelope: 'none',
    auth: 'none',
    tag,
    summary: 'Browsable API reference (Swagger UI over /openapi.json)',
  },
  {
    method: 'GET',
    path: '/openapi.json',
    handler: 'platform/get-openapi',
    envelope: 'none',
    auth: 'none',
    tag,
    summary: 'This API as an OpenAPI 3.1 document (generated from the route table and zod schemas)',
  },
  {
    method: 'GET',
    path: '/.well-known/jwks.json',
    handler: 'platform/get-jwks',
    envelope: 'none',
    auth: 'none',
    needs: ['token-verifier'],
    tag,
    summary: 'Public keys (JWKS) that verify the access tokens this service issues',
  },
  {
    method: 'ANY',
    path: '$default',
    handler: 'platform/not-found',
    auth: 'none',
    tag,
    summary: 'Catch-all: any request no route matches gets the 404 error envelope',
  },
];
