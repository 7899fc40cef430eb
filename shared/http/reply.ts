/**
 * What a handler returns. The middleware chain turns a Reply into the route's envelope
 * (spec 2.1), so handlers never build envelopes or pick status codes by number.
 */
export interface Reply {
  readonly kind: 'ok' | 'created' | 'no-content' | 'raw' | 'html';
  readonly data?: unknown;
  readonly meta_data?: Record<string, unknown>;
  readonly message?: string;
  readonly headers?: Record<string, string>;
}

export interface ReplyExtras {
  meta_data?: Record<string, unknown>;
  message?: string;
  headers?: Record<string, string>;
}

/** 200 with the success envelope. */
export const ok = (data: unknown, extras: ReplyExtras = {}): Reply => ({ kind: 'ok', data, ...extras });

/** 201 with the success envelope. */
export const created = (data: unknown, extras: ReplyExtras = {}): Reply => ({
  kind: 'created',
  data,
  ...extras,
});

/** 200 with `body` as the whole JSON response, no envelope (standard documents such as a JWKS). */
export const raw = (body: unknown, headers: Record<string, string> = {}): Reply => ({
  kind: 'raw',
  data: body,
  headers,
});

/** 200 with an HTML page (the API reference), no envelope. */
export const html = (page: string): Reply => ({ kind: 'html', data: page });

/** 204 with no body. */
export const noContent = (): Reply => ({ kind: 'no-content' });

export const statusOf = (reply: Reply): number =>
  reply.kind === 'created' ? 201 : reply.kind === 'no-content' ? 204 : 200;

/** 200 for a domain result that already carries `data` and `meta_data` (paginated lists). */
export const paged = ({ data, ...extras }: { data: unknown } & ReplyExtras): Reply => ok(data, extras);
