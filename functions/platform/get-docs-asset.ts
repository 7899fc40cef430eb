import { endpoint } from '../../shared/http/handler.ts';
import { text } from '../../shared/http/reply.ts';
import { swaggerUiAsset } from '../../shared/openapi/reference-page.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.getDocsAsset, ({ path }) => {
  const asset = swaggerUiAsset(path.name);
  return text(asset.body, asset.type, { 'cache-control': 'public, max-age=31536000, immutable' });
});
