import { describe, expect, it } from 'vitest';
import { CATEGORY_IDS, TIER_IDS } from '../../shared/catalog/model.ts';
import { verifyPassword } from '../../shared/identity/password.ts';
import { DEMO_VIEWER, GATED_LIVE_CREATOR_ID, generateCatalog } from '../../scripts/seed/generate.ts';

const now = new Date('2026-03-08T06:30:00Z');
const catalog = generateCatalog({ now, seed: 42 });
const DAY = 86_400_000;

describe('generateCatalog', () => {
  it('is deterministic for a seed and differs across seeds', () => {
    expect(generateCatalog({ now, seed: 42 })).toEqual(catalog);
    expect(generateCatalog({ now, seed: 7 }).creators.map((c) => c.name)).not.toEqual(
      catalog.creators.map((c) => c.name),
    );
  });

  it('has at least 200 creators over every category and tier, about a third live', () => {
    expect(catalog.creators.length).toBeGreaterThanOrEqual(200);
    expect(new Set(catalog.creators.map((c) => c.category))).toEqual(new Set(CATEGORY_IDS));
    expect(new Set(catalog.creators.map((c) => c.tier))).toEqual(new Set(TIER_IDS));
    const live = catalog.creators.filter((c) => c.live).length / catalog.creators.length;
    expect(live).toBeGreaterThan(0.25);
    expect(live).toBeLessThan(0.42);
    for (const c of catalog.creators) {
      expect(c.watching_now > 0).toBe(c.live !== null);
      expect(c.peak_all_time).toBeGreaterThanOrEqual(c.watching_now);
      expect(c.avatar_color).toMatch(/^#[0-9A-F]{6}$/);
    }
  });

  it('gives unique ids, slugs (letters, digits, underscores) and channel numbers', () => {
    const unique = (values: unknown[]) => new Set(values).size === values.length;
    expect(unique(catalog.creators.map((c) => c.id))).toBe(true);
    expect(unique(catalog.creators.map((c) => c.slug))).toBe(true);
    expect(unique(catalog.creators.map((c) => c.channel.channel_number))).toBe(true);
    for (const c of catalog.creators) expect(c.slug).toMatch(/^[a-z0-9_]+$/);
    expect(unique(catalog.shows.map((s) => s.id))).toBe(true);
    expect(unique(catalog.episodes.map((e) => e.id))).toBe(true);
    expect(unique(catalog.programs.map((p) => p.program_id))).toBe(true);
  });

  it('has at least 150 shows whose episodes number 1..n per season', () => {
    expect(catalog.shows.length).toBeGreaterThanOrEqual(150);
    for (const show of catalog.shows.slice(0, 40)) {
      for (const season of show.seasons) {
        const numbers = catalog.episodes
          .filter((e) => e.show_id === show.id && e.season === season.number)
          .map((e) => e.episode_number);
        expect(numbers).toEqual(numbers.map((_, i) => i + 1));
        expect(numbers.length).toBeGreaterThanOrEqual(4);
      }
      expect(show.is_new).toBe(show.tags.includes('new'));
      expect(show.is_featured).toBe(show.tags.includes('featured'));
    }
    expect(catalog.episodes.some((e) => e.access === 'ppv' && e.price !== null)).toBe(true);
  });

  it('covers every channel with contiguous programs from the day before to 7 days after', () => {
    const dayStart = Math.floor(now.getTime() / DAY) * DAY;
    const byChannel = new Map<string, typeof catalog.programs>();
    for (const p of catalog.programs)
      byChannel.set(p.channel_id, [...(byChannel.get(p.channel_id) ?? []), p]);
    expect(byChannel.size).toBe(catalog.creators.length);
    for (const programs of byChannel.values()) {
      const sorted = [...programs].sort((a, b) => a.start.localeCompare(b.start));
      expect(Date.parse(sorted[0]!.start)).toBe(dayStart - DAY);
      expect(Date.parse(sorted.at(-1)!.end)).toBe(dayStart + 8 * DAY);
      for (let i = 1; i < sorted.length; i++) expect(sorted[i]!.start).toBe(sorted[i - 1]!.end);
      for (const p of sorted) expect(Date.parse(p.start) % (30 * 60_000)).toBe(0);
    }
  });

  it('has a gated live channel the demo viewer is subscribed to', () => {
    const gated = catalog.creators.find((c) => c.id === GATED_LIVE_CREATOR_ID)!;
    expect(gated.live).not.toBeNull();
    expect(gated.channel.requires_subscription).toBe(true);
    const viewer = catalog.accounts.find((a) => a.email === DEMO_VIEWER.email)!;
    expect(viewer.subscriptions).toContain(GATED_LIVE_CREATOR_ID);
  });

  it("stores each demo account's precomputed hash of its documented password, and only that", async () => {
    expect(catalog.accounts.length).toBeGreaterThan(0);
    for (const account of catalog.accounts) {
      expect(account.password_hash).toMatch(/^scrypt\$131072\$8\$1\$/);
      expect(await verifyPassword(account.password, account.password_hash)).toBe(true);
      expect(await verifyPassword(`${account.password}x`, account.password_hash)).toBe(false);
    }
  });

  it("puts every media URL under the platform's CDN_URL, or the cdn it is given (issue 33)", () => {
    /** Every string field holding a URL, anywhere in the catalogue. */
    const urls = (value: unknown): string[] =>
      typeof value === 'string'
        ? /^https?:\/\//.test(value)
          ? [value]
          : []
        : value && typeof value === 'object'
          ? Object.values(value).flatMap(urls)
          : [];
    const media = (c: typeof catalog) => urls(c).filter((url) => /\.(jpg|m3u8)$/.test(url));
    const given = generateCatalog({ now, seed: 42, cdn: 'https://media.example.net' });
    expect(media(given).length).toBeGreaterThan(1000);
    for (const url of media(given)) expect(url).toMatch(/^https:\/\/media\.example\.net\/[a-z]+\//);
    const previous = process.env.CDN_URL;
    process.env.CDN_URL = 'http://127.0.0.1:4599/cdn/';
    try {
      const configured = media(generateCatalog({ now, seed: 42 }));
      expect(configured.length).toBe(media(given).length);
      for (const url of configured) expect(url).toMatch(/^http:\/\/127\.0\.0\.1:4599\/cdn\/[a-z]+\//);
    } finally {
      if (previous === undefined) delete process.env.CDN_URL;
      else process.env.CDN_URL = previous;
    }
  });

  it('scales ten times for benchmarks', () => {
    const big = generateCatalog({ now, seed: 42, scale: 10 });
    expect(big.creators.length).toBe(catalog.creators.length * 10);
    expect(big.shows.length).toBe(catalog.shows.length * 10);
  });
});
