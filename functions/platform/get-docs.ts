import { endpoint } from '../../shared/http/handler.ts';
import { html } from '../../shared/http/reply.ts';
import { apiReferenceHeaders, apiReferencePage } from '../../shared/openapi/reference-page.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.getDocs, () => html(apiReferencePage(), apiReferenceHeaders()));
