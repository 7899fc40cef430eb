import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * The API reference page (`GET /docs`): Swagger UI rendering `/openapi.json`, a page where people
 * paste bearer tokens, so it is locked down (issue 33): a strict Content-Security-Policy (scripts
 * and styles only from this API, the one inline script by its hash, requests only to this API,
 * never framed), `Referrer-Policy: no-referrer`, nosniff, no caching by shared caches.
 * Its assets are the pinned swagger-ui-dist package's, served by this API itself
 * (`GET /docs/assets/{name}`, the same function locally and on AWS, which ships the files in its
 * bundle: RouteRow `files`), so no third-party script ever runs on the page. Each carries a
 * Subresource Integrity hash of that pinned version (test/platform/security-headers.test.ts
 * checks them against the package).
 */
export const SWAGGER_UI_VERSION = '5.35.0';

/** The page's assets: media type and SHA-384 of the pinned swagger-ui-dist file (Subresource Integrity). */
export const SWAGGER_UI_ASSETS = {
  'swagger-ui.css': {
    type: 'text/css; charset=utf-8',
    integrity: 'sha384-WlYgdmXYOOBWL5apwjDEZwN+U3HmXSSu5R6V5aGxEcf7z+KuRNwBhoxKVN1i3D5I',
  },
  'swagger-ui-bundle.js': {
    type: 'text/javascript; charset=utf-8',
    integrity: 'sha384-gjRm0bEPMeTmMh5jT2cHccIwCUZSTd8YC+j0d0sXw0MdGEfScduGpSyF3ZSSLkX9',
  },
} as const;

export type SwaggerUiAsset = keyof typeof SWAGGER_UI_ASSETS;
export const SWAGGER_UI_ASSET_NAMES = Object.keys(SWAGGER_UI_ASSETS) as [SwaggerUiAsset, ...SwaggerUiAsset[]];

/** The package files the asset route reads at run time (its row's `files`). */
export const SWAGGER_UI_FILES = SWAGGER_UI_ASSET_NAMES.map((name) => `swagger-ui-dist/${name}`);

/** Where the page loads them from: this API (`/docs/assets/{name}`), the version in the query so a new one is a new URL. */
const assetUrl = (name: SwaggerUiAsset) => `/docs/assets/${name}?v=${SWAGGER_UI_VERSION}`;

/**
 * Tags start folded (`docExpansion: 'none'`): with 120-odd operations, `'list'` rendered every
 * operation before the later tags appeared (Home, Creators and Shows after 15 s on a loaded
 * 2-core machine), so a reader saw half the API. A tag's operations render when it is opened.
 */
const INIT =
  "window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#api-reference', deepLinking: true, docExpansion: 'none' });";
const INIT_HASH = `'sha256-${createHash('sha256').update(INIT).digest('base64')}'`;

export const apiReferencePage = (): string => `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Creator streaming platform API</title>
  <link rel="stylesheet" href="${assetUrl('swagger-ui.css')}" integrity="${SWAGGER_UI_ASSETS['swagger-ui.css'].integrity}" crossorigin="anonymous">
</head>
<body>
  <div id="api-reference"></div>
  <script src="${assetUrl('swagger-ui-bundle.js')}" integrity="${SWAGGER_UI_ASSETS['swagger-ui-bundle.js'].integrity}" crossorigin="anonymous"></script>
  <script>${INIT}</script>
</body>
</html>`;

/**
 * The page's response headers. Swagger UI sets inline `style` attributes, hence `'unsafe-inline'`
 * for styles only; no inline script runs but the one hashed above, and no script from elsewhere.
 */
export const apiReferenceHeaders = (): Record<string, string> => ({
  'content-security-policy': [
    "default-src 'none'",
    `script-src 'self' ${INIT_HASH}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; '),
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-cache',
});

const packages = createRequire(import.meta.url);
const loaded = new Map<SwaggerUiAsset, string>();

/**
 * One asset's text, read once per container from the installed swagger-ui-dist: the repository's
 * node_modules locally, the copy in the function's bundle on Lambda (infra/bundling.ts).
 */
export const swaggerUiAsset = (name: SwaggerUiAsset): { body: string; type: string } => {
  let body = loaded.get(name);
  if (body === undefined) {
    body = readFileSync(packages.resolve(`swagger-ui-dist/${name}`), 'utf8');
    loaded.set(name, body);
  }
  return { body, type: SWAGGER_UI_ASSETS[name].type };
};
