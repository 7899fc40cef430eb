import * as z from 'zod/mini';
import { contract } from '../../shared/http/contract.ts';

const tag = 'Platform';

export const getDocs = contract({
  operationId: 'getDocs',
  method: 'GET',
  path: '/docs',
  handler: 'platform/get-docs',
  envelope: 'none',
  auth: 'none',
  tag,
  summary: 'Browsable API reference (Swagger UI over /openapi.json)',
  description: 'Browsable API reference (Swagger UI over /openapi.json)',
  responses: {
    200: { description: 'The page', html: true },
  },
});

export const getOpenapi = contract({
  operationId: 'getOpenapi',
  method: 'GET',
  path: '/openapi.json',
  handler: 'platform/get-openapi',
  envelope: 'none',
  auth: 'none',
  tag,
  summary: 'This API as an OpenAPI 3.1 document (generated from the route table and zod schemas)',
  description: 'This API as an OpenAPI 3.1 document (generated from the route table and zod schemas)',
  responses: {
    200: { description: 'The document', data: z.unknown() },
  },
});

export const getJwks = contract({
  operationId: 'getJwks',
  method: 'GET',
  path: '/.well-known/jwks.json',
  handler: 'platform/get-jwks',
  envelope: 'none',
  auth: 'none',
  needs: ['token-verifier'],
  tag,
  summary: 'Public keys (JWKS) that verify the access tokens this service issues',
  description: 'Public keys (JWKS) that verify the access tokens this service issues',
  responses: {
    200: { description: 'The document', data: z.unknown() },
  },
});

export const notFound = contract({
  operationId: 'notFound',
  method: 'ANY',
  path: '$default',
  handler: 'platform/not-found',
  auth: 'none',
  tag,
  summary: 'Catch-all: any request no route matches gets the 404 error envelope',
  description: 'Catch-all: any request no route matches gets the 404 error envelope',
  responses: {
    404: {
      description: 'No route matches this method and path',
      message: 'No route matches this method and path',
    },
  },
});

export const platformContracts = [getDocs, getOpenapi, getJwks, notFound] as const;
