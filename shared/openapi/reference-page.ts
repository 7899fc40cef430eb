/**
 * The API reference page (`GET /docs`): Swagger UI rendering `/openapi.json`. Its assets come
 * from `DOCS_ASSET_BASE`: locally `/docs/assets` (served by the local server from the pinned
 * swagger-ui-dist package), on AWS the same pinned version from a public CDN.
 */
export const SWAGGER_UI_VERSION = '5.35.0';

export const apiReferencePage = (): string => {
  const assets = process.env.DOCS_ASSET_BASE ?? '/docs/assets';
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Creator streaming platform API</title>
  <link rel="stylesheet" href="${assets}/swagger-ui.css">
</head>
<body>
  <div id="api-reference"></div>
  <script src="${assets}/swagger-ui-bundle.js"></script>
  <script>
    window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#api-reference', deepLinking: true, docExpansion: 'list' });
  </script>
</body>
</html>`;
};
