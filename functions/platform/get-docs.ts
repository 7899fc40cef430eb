import { httpHandler } from '../../shared/http/handler.ts';
import { html } from '../../shared/http/reply.ts';
import { apiReferencePage } from '../../shared/openapi/reference-page.ts';

export const handler = httpHandler({}, () => html(apiReferencePage()));
