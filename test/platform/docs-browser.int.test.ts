import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import chromium from '@sparticuz/chromium';
import { chromium as playwright } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApi, testApi } from '../support/api.ts';

/**
 * Opens the API reference in headless Chromium, finds an endpoint, expands it and saves a
 * screenshot to .local/screenshots/docs.png. The browser is the one `@sparticuz/chromium` ships
 * inside its npm tarball (unpacked to the temp folder on first use), so `npm ci` brings it on any
 * machine: nothing is installed outside the project's own files.
 */
let api: TestApi;
beforeAll(async () => {
  api = await testApi();
});

describe('the API reference page', () => {
  it('renders every tag from /openapi.json and expands GET /creators', async () => {
    const browser = await playwright.launch({
      executablePath: await chromium.executablePath(),
      args: chromium.args,
      headless: true,
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 1400 } });
      const problems: string[] = [];
      page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
      page.on('pageerror', (e) => problems.push(e.message));
      await page.goto(`${api.url}/docs`);
      const operation = page.locator('.opblock-summary', { hasText: '/creators/search' }).first();
      await operation.waitFor({ timeout: 20_000 }).catch(async (error) => {
        throw new Error(
          `${error.message}; page problems: ${problems.join(' | ')}; text: ${(await page.content()).slice(0, 600)}`,
        );
      });
      await operation.click();
      await page.locator('.opblock-body .parameters').first().waitFor({ timeout: 10_000 });
      const text = await page.locator('#api-reference').textContent();
      for (const tag of ['Creators', 'Shows', 'Live', 'EPG', 'Onboarding', 'Reactions', 'Analytics'])
        expect(text).toContain(tag);
      expect(text).toContain('q');
      const dir = resolve(import.meta.dirname, '../../.local/screenshots');
      mkdirSync(dir, { recursive: true });
      await page.screenshot({ path: join(dir, 'docs.png') });
    } finally {
      await browser.close();
    }
  }, 60_000);
});
