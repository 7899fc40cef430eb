import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import chromium from '@sparticuz/chromium';
import { chromium as playwright } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApi, testApi } from '../support/api.ts';

/**
 * Opens the API reference in headless Chromium, finds an endpoint, expands it, checks that GET
 * /creators shows its real response schema (the example built from the demo data, and the
 * fields with their descriptions in the Schema tab) and saves a screenshot to
 * .local/screenshots/docs.png. The browser is the one `@sparticuz/chromium` ships
 * inside its npm tarball (unpacked to the temp folder on first use), so `npm ci` brings it on any
 * machine: nothing is installed outside the project's own files.
 */
let api: TestApi;
beforeAll(async () => {
  api = await testApi();
});

describe('the API reference page', () => {
  it('renders every tag from /openapi.json, and GET /creators with its real response schema', async () => {
    const browser = await playwright.launch({
      executablePath: await chromium.executablePath(),
      args: chromium.args,
      headless: true,
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 1400 } });
      // Waits are hang guards: Chromium shares the 2 cores with the other test worker.
      page.setDefaultTimeout(60_000);
      const problems: string[] = [];
      page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
      page.on('pageerror', (e) => problems.push(e.message));
      await page.goto(`${api.url}/docs`);
      // Every tag of the document has its heading at once (tags start folded: a full run with
      // every operation listed had rendered only the first three tags after 15 s).
      const document = (await api.get('/openapi.json')).body as { tags: { name: string }[] };
      expect(document.tags.map((t) => t.name)).toEqual(
        expect.arrayContaining(['Creators', 'Shows', 'Live', 'EPG', 'Onboarding', 'Reactions', 'Analytics']),
      );
      const last = page.locator(`#operations-tag-${document.tags.at(-1)!.name}`);
      await last.waitFor({ timeout: 60_000 }).catch(async (error) => {
        throw new Error(
          `${error.message}; page problems: ${problems.join(' | ')}; text: ${(await page.content()).slice(0, 600)}`,
        );
      });
      const headings = await page.locator('h3.opblock-tag').evaluateAll((hs) => hs.map((h) => h.id));
      expect(headings).toEqual(document.tags.map((t) => `operations-tag-${t.name}`));
      // Opening a tag lists its operations; an operation opens to its parameters.
      await page.locator('#operations-tag-Creators').click();
      const operation = page.locator('.opblock-summary', { hasText: '/creators/search' }).first();
      await operation.click();
      await page.locator('.opblock-body .parameters').first().waitFor({ timeout: 30_000 });
      const text = await page.locator('#api-reference').textContent();
      expect(text).toContain('Text to find in creator names and handles');

      // GET /creators shows the real response schema: its 200 example is built from the
      // CreatorSummary schema's demo-data examples, and the Schema tab lists its fields with
      // their descriptions.
      const listCreators = page.locator('#operations-Creators-listCreators');
      await listCreators.locator('.opblock-summary').click();
      const ok = listCreators.locator('tr.response[data-code="200"]');
      await ok.locator('.microlight').first().waitFor({ timeout: 30_000 });
      const example = (await ok.locator('.microlight').first().textContent()) ?? '';
      const summary = (await api.get('/openapi.json')).body.components.schemas.CreatorSummary;
      const formatted = summary.properties.subscribers_formatted.examples[0] as string;
      expect(formatted).toMatch(/^\d+(\.\d)?[KM]?$/);
      expect(example).toContain(`"subscribers_formatted": "${formatted}"`);
      expect(example).toMatch(/"creators":\s*\[/);
      expect(example).toMatch(/"total_pages":/);
      await ok.locator('button[data-name="model"]').click();
      const model = ok.locator('.model-box').first();
      await model.waitFor({ timeout: 30_000 });
      // "Expand all" on `data` unfolds the creators' schema down to their fields.
      const data = model.locator('article[data-json-schema-level="1"]', {
        has: page.locator('.json-schema-2020-12__title', { hasText: /^data$/ }),
      });
      await data.locator('.json-schema-2020-12-expand-deep-button').first().click();
      // The fields render after the click returns: wait for one (a clean-clone CI run read the
      // text while it still said only "creators: array<object>").
      await data.getByText('subscribers_formatted').first().waitFor({ timeout: 30_000 });
      const schema = (await data.textContent()) ?? '';
      expect(schema).toContain('subscribers_formatted');
      expect(schema).toContain(summary.properties.subscribers_formatted.description);
      expect(schema).toContain(summary.description);
      const dir = resolve(import.meta.dirname, '../../.local/screenshots');
      mkdirSync(dir, { recursive: true });
      await page.screenshot({ path: join(dir, 'docs.png') });
      await data.screenshot({ path: join(dir, 'docs-list-creators-schema.png') });
    } finally {
      await browser.close();
    }
  }, 180_000);
});
