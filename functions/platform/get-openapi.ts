import document from '../../docs/openapi.json' with { type: 'json' };
import { endpoint } from '../../shared/http/handler.ts';
import { raw } from '../../shared/http/reply.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.getOpenapi, () =>
  raw(document, { 'cache-control': 'public, max-age=300' }),
);
