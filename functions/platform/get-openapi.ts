import document from '../../docs/openapi.json' with { type: 'json' };
import { httpHandler } from '../../shared/http/handler.ts';
import { raw } from '../../shared/http/reply.ts';

export const handler = httpHandler({}, () => raw(document, { 'cache-control': 'public, max-age=300' }));
