import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { handler as getDocs } from '../../functions/platform/get-docs.ts';
import { handler as notFound } from '../../functions/platform/not-found.ts';
import { handler as listSubscriptions } from '../../functions/webhooks/list-subscriptions.ts';
import { SWAGGER_UI_INTEGRITY } from '../../shared/openapi/reference-page.ts';
import { apiEvent } from '../support/events.ts';

/** Issue 33 item 4: the response headers, handler by handler (no network: none of these reach a store). */
describe('response headers', () => {
  it('locks down /docs: strict CSP, never framed, no referrer, nosniff, assets by integrity', async () => {
    const res = await getDocs(apiEvent({ route: 'GET /docs' }));
    const headers = res.headers ?? {};
    const csp = String(headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'(;|$)/);
    expect(csp).not.toMatch(/unsafe-eval|https?:\/\/|\*/);
    expect(headers['referrer-policy']).toBe('no-referrer');
    expect(headers['x-content-type-options']).toBe('nosniff');
    const page = String(res.body);
    // The one inline script is the one the policy's hash names.
    const inline = [...page.matchAll(/<script>([^<]*)<\/script>/g)].map((m) => m[1]!);
    expect(inline).toHaveLength(1);
    expect(csp).toContain(`'sha256-${createHash('sha256').update(inline[0]!).digest('base64')}'`);
    for (const [file, integrity] of Object.entries(SWAGGER_UI_INTEGRITY)) {
      const bytes = readFileSync(resolve(import.meta.dirname, '../../node_modules/swagger-ui-dist', file));
      expect(integrity).toBe(`sha384-${createHash('sha384').update(bytes).digest('base64')}`);
      expect(page).toContain(`integrity="${integrity}"`);
    }
  });

  it('sends nosniff on every answer, a public 404 included', async () => {
    const res = await notFound(apiEvent({ route: '$default', path: '/nowhere' }));
    expect(res.statusCode).toBe(404);
    expect(res.headers?.['x-content-type-options']).toBe('nosniff');
    expect(res.headers?.['cache-control']).toBeUndefined();
  });

  it('sends no-store on every answer of a route that requires a token (secrets, account data), errors too', async () => {
    const res = await listSubscriptions(apiEvent({ route: 'GET /webhooks/subscriptions' }));
    expect(res.statusCode).toBe(401);
    expect(res.headers?.['cache-control']).toBe('no-store');
    expect(res.headers?.['x-content-type-options']).toBe('nosniff');
  });
});
