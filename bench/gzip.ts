/**
 * Gzip cost and ratio of a real show-detail answer (docs/performance.md, "Large answers: gzip"):
 * the `GET /shows/{id}` envelope of the demo show sh_0001 given N distinct demo episodes re-homed
 * into it, anonymous viewer, at ~16 KB to ~5 MB, at zlib levels 1, 4 and 6.
 * `npx tsx bench/gzip.ts` (or the Lambda runtime's Node 22: `.local/node-22.23.3/node --import tsx bench/gzip.ts`).
 */
import { generateKeyPairSync } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { generateCatalog } from '../scripts/seed/generate.ts';
import { mediaSigner } from '../shared/playback/media-signing.ts';
import { anonymous } from '../shared/shows/entitlement.ts';
import { showDetail } from '../shared/shows/show-views.ts';

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
const viewer = anonymous(mediaSigner({ keyPairId: 'K2JCJMDEHXQW5F', privateKey: pem }));
const catalog = generateCatalog({ now: new Date(), seed: 42, cdn: 'https://media.example.com' });
const show = catalog.shows[0]!;
const base = catalog.episodes.map((e) => ({ ...e, show_id: show.id }));
const episodes = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    ...base[i % base.length]!,
    id: `ep_${i}`,
    season: 1 + Math.floor(i / 100),
    episode_number: 1 + (i % 100),
  }));
const answer = (n: number) =>
  JSON.stringify({ status: 'success', data: showDetail(show, undefined, episodes(n), viewer) });

const perEpisode = answer(1000).length / 1000;
console.log(`bytes per episode: ${perEpisode.toFixed(0)}`);
for (const target of [16e3, 64e3, 256e3, 1024e3, 5 * 1024e3]) {
  const body = answer(Math.max(1, Math.round(target / perEpisode)));
  const row = [`${(body.length / 1024).toFixed(0)} KB`];
  for (const level of [1, 4, 6]) {
    const runs = target > 2e6 ? 5 : 20;
    gzipSync(body, { level });
    const started = performance.now();
    let out = Buffer.alloc(0);
    for (let i = 0; i < runs; i++) out = gzipSync(body, { level });
    const ms = (performance.now() - started) / runs;
    const ratio = (body.length / out.length).toFixed(1);
    row.push(
      `level ${level}: ${ms.toFixed(2)} ms, ${ratio}x, ${(out.toString('base64').length / 1024).toFixed(0)} KB base64`,
    );
  }
  console.log(row.join(' | '));
}
