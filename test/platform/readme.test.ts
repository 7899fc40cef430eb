import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { README, withEndpoints } from '../../scripts/readme-endpoints.ts';
import { sellingCreators } from '../../scripts/local/stripe/demo.ts';
import { generateCatalog } from '../../scripts/seed/generate.ts';
import { catalogItems } from '../../scripts/seed/load.ts';

describe('README endpoint list', () => {
  it('matches the route table (run npm run docs:endpoints after changing routes)', () => {
    const readme = readFileSync(README, 'utf8');
    expect(withEndpoints(readme)).toBe(readme);
  });
});

describe('README figures', () => {
  const readme = readFileSync(README, 'utf8');

  it("states the item count npm start's ready line prints (the seed's items and the demo channels)", () => {
    const stated = /\(([\d,]+) items, the count its ready line prints\)/.exec(readme)?.[1];
    const now = new Date();
    const catalog = generateCatalog({ now, seed: 42 });
    // As npm start loads it (scripts/local/platform.ts): the creators the seed shows live loaded
    // offline with an IVS channel (they then go live through the IVS stand-in), plus each one's
    // channel lookup item and its chat room's lookup item (scripts/local/ivs/demo-channels.ts), and
    // the payout account of each demo creator who sells (scripts/local/stripe/demo.ts).
    const live = catalog.creators.filter((c) => c.live !== null);
    const creators = catalog.creators.map((c) => (c.live ? { ...c, live: null, watching_now: 0 } : c));
    const seeded =
      catalogItems({ ...catalog, creators }, now).length + 2 * live.length + sellingCreators(catalog).length;
    expect(stated?.replaceAll(',', '')).toBe(String(seeded));
  });

  it("names the Node version @sparticuz/chromium declares, and package.json's engines as the floor", () => {
    const engines = (path: string) =>
      (
        JSON.parse(readFileSync(resolve(import.meta.dirname, '../..', path), 'utf8')) as {
          engines: { node: string };
        }
      ).engines.node;
    const chromium = engines('node_modules/@sparticuz/chromium/package.json');
    expect(readme).toContain(`(\`@sparticuz/chromium\`) declares\n  \`node ${chromium}\``);
    const floor = engines('package.json').replace('>=', '');
    expect(readme).toContain(`Node ${floor} or later also runs everything`);
  });
});
