import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApi, testApi } from '../support/api.ts';

/**
 * Opens the API reference in headless Chromium (Debian's package, installed by .ci/run), finds an
 * endpoint, expands it and saves a screenshot to .local/screenshots/docs.png.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
let api: TestApi;
const profile = mkdtempSync(join(tmpdir(), 'chromium-'));
beforeAll(async () => {
  api = await testApi();
});
afterAll(() => rmSync(profile, { recursive: true, force: true }));

describe('the API reference page', () => {
  it('renders every tag from /openapi.json and expands GET /creators', async () => {
    const browser = await chromium.launchPersistentContext(profile, {
      headless: true,
      executablePath: CHROMIUM,
      viewport: { width: 1280, height: 1400 },
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    try {
      const page = await browser.newPage();
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
