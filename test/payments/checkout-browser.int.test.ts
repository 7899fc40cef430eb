import { randomUUID } from 'node:crypto';
import chromium from '@sparticuz/chromium';
import { chromium as playwright } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Catalog } from '../../shared/catalog/model.ts';
import { issueAccessToken } from '../../shared/identity/access-token.ts';
import { generateCatalog } from '../../scripts/seed/generate.ts';
import { type TestApi, testApi } from '../support/api.ts';
import { entitlementsOf } from '../support/payments.ts';
import { waitFor } from '../support/wait.ts';

/**
 * Issue 36's must-show, as a viewer does it: a premium episode is locked; `POST /checkout` gives
 * the hosted payment page's URL; a person (headless Chromium, the browser @sparticuz/chromium ships
 * in its npm tarball) opens it and clicks Subscribe; the stand-in redirects to the site's
 * success URL and delivers Stripe's signed webhooks; within 5 s the episode plays and
 * `/me/entitlements` lists the subscription.
 */
let api: TestApi;
let catalog: Catalog;
beforeAll(async () => {
  api = await testApi();
  catalog = generateCatalog({ now: api.seededAt, seed: 42 });
});

describe('checkout through the hosted page, clicked in a browser', () => {
  it('a premium episode unlocks within 5 s of clicking Subscribe', async () => {
    const premium = catalog.episodes.find((e) => e.access === 'premium')!;
    const { token } = await issueAccessToken(`acc_browser_${randomUUID()}`, new Date());
    // Where the caller is known (the public /shows pages are the same for everyone): the TV
    // show page carries the episode's playlist once it is unlocked.
    const plays = async () =>
      JSON.stringify((await api.get(`/tv/v3/shows/${premium.show_id}`, { token })).body).includes(
        `/vod/${premium.id}/master.m3u8`,
      );
    expect(await plays()).toBe(false);

    const checkout = await api.post('/checkout', { token, body: { creator_id: premium.creator_id } });
    expect(checkout.status).toBe(201);
    const { url, checkout_id } = checkout.body.data as { url: string; checkout_id: string };

    const browser = await playwright.launch({
      executablePath: await chromium.executablePath(),
      args: chromium.args,
      headless: true,
    });
    try {
      const page = await browser.newPage();
      page.setDefaultTimeout(60_000); // hang guard: Chromium shares 2 cores with another worker
      await page.goto(url);
      expect(await page.getByTestId('amount').textContent()).toMatch(/\d/);
      // Paid, the page redirects to the site's success URL (SITE_URL, which nothing serves here, so
      // the redirect itself is what the test reads).
      const [paid] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === 'POST' && r.url() === url),
        page.getByTestId('pay').click(),
      ]);
      expect(paid.status()).toBe(303);
      expect(new URL(paid.headers().location!).searchParams.get('checkout')).toBe('success');
      const clickedAt = Date.now();
      await waitFor(plays, 'the episode to unlock', 5000);
      expect(Date.now() - clickedAt).toBeLessThan(5000);
    } finally {
      await browser.close();
    }
    expect(await entitlementsOf(api, token)).toEqual([
      expect.objectContaining({
        kind: 'subscription',
        creator_id: premium.creator_id,
        status: 'active',
        grants_access: true,
      }),
    ]);
    // Paid once: the session is complete, and a second checkout for the same creator is a 409.
    expect(checkout_id).toMatch(/^cs_/);
    expect((await api.post('/checkout', { token, body: { creator_id: premium.creator_id } })).status).toBe(
      409,
    );
  });
});
