import type {
  AcceptedReply,
  CreatedReply,
  NoContentReply,
  OkReply,
  RawReply,
  TextReply,
} from './contract.ts';

/**
 * What a handler returns. The middleware chain turns a Reply into the route's envelope
 * (spec 2.1), so handlers never build envelopes or pick status codes by number; `endpoint`
 * checks the reply's `data` and `meta_data` against the contract's success schemas.
 */
export type Reply =
  | OkReply<unknown, unknown>
  | CreatedReply<unknown, unknown>
  | AcceptedReply<unknown, unknown>
  | RawReply<unknown>
  | TextReply
  | NoContentReply;

export interface ReplyExtras<M> {
  meta_data?: M;
  message?: string;
  headers?: Record<string, string>;
}

/** 200 with the success envelope. */
export const ok = <D, M = undefined>(data: D, extras: ReplyExtras<M> = {}): OkReply<D, M> => ({
  kind: 'ok',
  data,
  ...extras,
});

/** 201 with the success envelope. */
export const created = <D, M = undefined>(data: D, extras: ReplyExtras<M> = {}): CreatedReply<D, M> => ({
  kind: 'created',
  data,
  ...extras,
});

/** 202 with the success envelope: taken, with its effect still to come (or not to be shown). */
export const accepted = <D, M = undefined>(data: D, extras: ReplyExtras<M> = {}): AcceptedReply<D, M> => ({
  kind: 'accepted',
  data,
  ...extras,
});

/** 200 with `body` as the whole JSON response, no envelope (standard documents such as a JWKS). */
export const raw = <D>(body: D, headers: Record<string, string> = {}): RawReply<D> => ({
  kind: 'raw',
  data: body,
  headers,
});

/** 200 with a text document of type `contentType` (the API reference page, its assets), no envelope. */
export const text = (body: string, contentType: string, headers: Record<string, string> = {}): TextReply => ({
  kind: 'text',
  data: body,
  contentType,
  headers,
});

/** 204 with no body. */
export const noContent = (): NoContentReply => ({ kind: 'no-content' });

export const statusOf = (reply: Reply): number =>
  reply.kind === 'created' ? 201 : reply.kind === 'accepted' ? 202 : reply.kind === 'no-content' ? 204 : 200;

/** 200 for a domain result that already carries `data` and `meta_data` (paginated lists). */
export const paged = <D, M>({ data, meta_data }: { data: D; meta_data: M }): OkReply<D, M> =>
  ok(data, { meta_data });
