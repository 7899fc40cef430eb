import { PayloadTooLargeError } from '../../errors/errors.ts';
import type { HttpMiddleware } from './state.ts';

/** Size of a request body in bytes (base64 bodies by their decoded size). */
const bodyBytes = (body: string, isBase64Encoded: boolean): number =>
  isBase64Encoded ? Math.floor((body.length * 3) / 4) : Buffer.byteLength(body);

/** Refuses a body larger than `maxBytes` with 413, before anything else reads it. */
export const bodyLimit = (maxBytes: number): HttpMiddleware => ({
  before: async ({ event }) => {
    if (event.body === undefined || event.body === null) return;
    if (bodyBytes(event.body, event.isBase64Encoded) > maxBytes) throw new PayloadTooLargeError(maxBytes);
  },
});
