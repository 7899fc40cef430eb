import { createHash } from 'node:crypto';

/**
 * The API reference page (`GET /docs`): Swagger UI rendering `/openapi.json`, a page where people
 * paste bearer tokens, so it is locked down (issue 33): a strict Content-Security-Policy (scripts
 * and styles only from the asset base, the one inline script by its hash, requests only to this
 * API, never framed), `Referrer-Policy: no-referrer`, nosniff, no caching by shared caches.
 * Its assets come from `DOCS_ASSET_BASE`: locally `/docs/assets` (served by the local server from
 * the pinned swagger-ui-dist package); each carries a Subresource Integrity hash of that pinned
 * version (test/platform/docs-page.test.ts checks them against the package), so an asset base
 * that serves anything else is refused by the browser.
 */
export const SWAGGER_UI_VERSION = '5.35.0';

/** SHA-384 of the pinned swagger-ui-dist files the page loads (Subresource Integrity). */
export const SWAGGER_UI_INTEGRITY = {
  'swagger-ui.css': 'sha384-WlYgdmXYOOBWL5apwjDEZwN+U3HmXSSu5R6V5aGxEcf7z+KuRNwBhoxKVN1i3D5I',
  'swagger-ui-bundle.js': 'sha384-gjRm0bEPMeTmMh5jT2cHccIwCUZSTd8YC+j0d0sXw0MdGEfScduGpSyF3ZSSLkX9',
} as const;

const INIT =
  "window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#api-reference', deepLinking: true, docExpansion: 'list' });";
const INIT_HASH = `'sha256-${createHash('sha256').update(INIT).digest('base64')}'`;

const assetBase = () => process.env.DOCS_ASSET_BASE ?? '/docs/assets';

/** Where the assets come from, as a CSP source: `'self'`, or the origin of an absolute base. */
const assetSource = (base: string) => (/^https?:\/\//.test(base) ? new URL(base).origin : "'self'");

export const apiReferencePage = (): string => {
  const assets = assetBase();
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Creator streaming platform API</title>
  <link rel="stylesheet" href="${assets}/swagger-ui.css" integrity="${SWAGGER_UI_INTEGRITY['swagger-ui.css']}" crossorigin="anonymous">
</head>
<body>
  <div id="api-reference"></div>
  <script src="${assets}/swagger-ui-bundle.js" integrity="${SWAGGER_UI_INTEGRITY['swagger-ui-bundle.js']}" crossorigin="anonymous"></script>
  <script>${INIT}</script>
</body>
</html>`;
};

/**
 * The page's response headers. Swagger UI sets inline `style` attributes, hence `'unsafe-inline'`
 * for styles only; no inline script runs but the one hashed above.
 */
export const apiReferenceHeaders = (): Record<string, string> => {
  const source = assetSource(assetBase());
  const self = source === "'self'" ? "'self'" : `'self' ${source}`;
  return {
    'content-security-policy': [
      "default-src 'none'",
      `script-src ${self} ${INIT_HASH}`,
      `style-src ${self} 'unsafe-inline'`,
      "img-src 'self' data:",
      `font-src ${self}`,
      "connect-src 'self'",
      "frame-ancestors 'none'",
      "base-uri 'none'",
      "form-action 'none'",
    ].join('; '),
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-cache',
  };
};
