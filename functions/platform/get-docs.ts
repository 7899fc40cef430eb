import { endpoint } from '../../shared/http/handler.ts';
import { text } from '../../shared/http/reply.ts';
import { apiReferenceHeaders, apiReferencePage } from '../../shared/openapi/reference-page.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.getDocs, () =>
  text(apiReferencePage(), 'text/html; charset=utf-8', apiReferenceHeaders()),
);
