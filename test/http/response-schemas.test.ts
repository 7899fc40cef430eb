import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { routes } from '../../functions/routes.ts';

/**
 * A Lambda's cold start builds no response schema (issue 19, docs/performance.md): a contract's
 * `responses` is a function that only the OpenAPI document and the tests call, and each domain
 * builds its response schemas on the first call (`responseSchemas`, shared/schema/schema-meta.ts).
 * Named schemas register their id when built, so the ids registered after importing every
 * handler are those of the request schemas (and `Pagination`, shared with the handlers' code).
 */
const ids = () => [...(z.globalRegistry as unknown as { _idmap: Map<string, unknown> })._idmap.keys()].sort();

describe('response schemas', () => {
  it('are not built by importing the handlers, only by calling responses()', async () => {
    for (const row of routes)
      await import(/* @vite-ignore */ resolve(import.meta.dirname, '../../functions', `${row.handler}.ts`));
    expect(ids()).toEqual([
      'LiveEpgChangeEvent',
      'LivePlayerEvent',
      'LiveReactionEvent',
      'Pagination',
      'VideoAdEvent',
      'VideoPlayerEvent',
      'WebhookCondition',
    ]);
    for (const row of routes) row.responses();
    expect(ids()).toEqual(expect.arrayContaining(['CreatorSummary', 'LiveStreamSummary', 'StudioChannel']));
    expect(ids().length).toBeGreaterThan(100);
  });
});
