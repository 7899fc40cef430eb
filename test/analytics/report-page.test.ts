import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import chromium from '@sparticuz/chromium';
import { type Browser, type Page, chromium as playwright } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClientEvent, toRecord } from '../../shared/analytics/ingest.ts';
import { fileSink } from '../../scripts/local/file-sink.ts';
import { titleRecord } from '../../shared/analytics/title-dimension.ts';

/**
 * The report as an analyst sees it (issue 20): `npm run analytics -- report` over known events,
 * opened in headless Chromium (the browser @sparticuz/chromium ships, as test/support/player.ts
 * launches it). The charts are read back through chart.js's own API (`Chart.getChart`), so the
 * test checks what is plotted, not what the HTML says.
 */
const dir = mkdtempSync(join(tmpdir(), 'analytics-report-'));
const out = join(dir, 'report.html');
const T = Date.parse('2026-11-22T20:00:00Z');
const at = (ms: number) => new Date(T + ms).toISOString();
let browser: Browser;
let page: Page;

/** Three live viewers in minute 20:00Z, two in 20:01Z; two views of a titled episode on web, one on ios. */
const writeEvents = async () => {
  const sink = fileSink(() => dir);
  const now = new Date(T + 3_600_000);
  const events: Array<[ClientEvent, 'video' | 'live', string]> = [];
  for (let i = 0; i < 3; i++) {
    const live = { session_id: `live-${i}`, channel_id: 'ch_0001', device_type: 'web' as const };
    events.push([{ ...live, type: 'start', client_ts: at(5_000 + i) }, 'live', 'FR']);
    events.push([
      { ...live, type: 'heartbeat', playing_seconds: 30, client_ts: at(35_000 + i) },
      'live',
      'FR',
    ]);
    if (i < 2)
      events.push([
        { ...live, type: 'heartbeat', playing_seconds: 30, client_ts: at(65_000 + i) },
        'live',
        'FR',
      ]);
  }
  for (const [i, device] of (['web', 'web', 'ios'] as const).entries()) {
    const video = { session_id: `video-${i}`, content_id: 'ep_0001_s1e01', device_type: device };
    events.push([{ ...video, type: 'start', client_ts: at(i * 60_000) }, 'video', 'FR']);
    events.push([{ ...video, type: 'playing', client_ts: at(i * 60_000 + 800) }, 'video', 'FR']);
    events.push([
      {
        ...video,
        type: 'end',
        position_seconds: 20,
        playing_seconds: 20,
        reason: 'completed',
        client_ts: at(i * 60_000 + 21_000),
      },
      'video',
      'FR',
    ]);
  }
  await sink.put(events.map(([event, family, country]) => toRecord(event, family, { now, country })));
  await sink.put([
    titleRecord(
      {
        id: 'ep_0001_s1e01',
        kind: 'episode',
        title: 'Office Sketches: Episode 1',
        show_id: 'sh_0001',
        creator_id: 'cr_0001',
        category: null,
      },
      now,
    ),
    titleRecord(
      {
        id: 'ch_0001',
        kind: 'channel',
        title: 'Maya Live',
        show_id: null,
        creator_id: 'cr_0001',
        category: 'comedy',
      },
      now,
    ),
  ]);
};

beforeAll(async () => {
  await writeEvents();
  const run = promisify(execFile);
  const root = resolve(import.meta.dirname, '../..');
  const { stdout } = await run(
    process.execPath,
    [
      '--import',
      'tsx',
      'analytics/run.ts',
      'report',
      '--from',
      '2026-11-22',
      '--to',
      '2026-11-22',
      '--by',
      'device',
      '--tz',
      'Europe/Paris',
      '--grain',
      'minute',
      '--out',
      out,
    ],
    { cwd: root, env: { ...process.env, ANALYTICS_DIR: dir } },
  );
  expect(stdout).toContain('report.html');
  browser = await playwright.launch({
    executablePath: await chromium.executablePath(),
    args: chromium.args,
    headless: true,
  });
  page = await browser.newPage();
  await page.setContent(readFileSync(out, 'utf8'), { waitUntil: 'load' });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What chart.js plots on the canvas `#chart-<name>`: labels and each dataset's label and points. */
const plotted = (name: string) =>
  page.evaluate((id) => {
    const chart = (globalThis as unknown as { Chart: { getChart(id: string): any } }).Chart.getChart(id);
    if (!chart) return undefined;
    return {
      type: chart.config.type as string,
      labels: chart.data.labels as string[],
      datasets: (chart.data.datasets as Array<{ label: string; data: Array<number | null> }>).map((d) => ({
        label: d.label,
        data: d.data,
      })),
    };
  }, `chart-${name}`);

describe('npm run analytics -- report', () => {
  it('says so when the period has no events, and which days have some', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        '--import',
        'tsx',
        'analytics/run.ts',
        'report',
        '--from',
        '2026-11-20',
        '--out',
        join(dir, 'empty.html'),
      ],
      { cwd: resolve(import.meta.dirname, '../..'), env: { ...process.env, ANALYTICS_DIR: dir } },
    );
    expect(stdout).toContain('No player events from 2026-11-20 to 2026-11-20 (UTC)');
    expect(stdout).toContain('Days with events: 2026-11-22');
  }, 60_000);
});

describe('the analytics report in a browser', () => {
  it('plots live concurrent viewers (viewer counts per minute, labelled in the zone), not timestamps', async () => {
    const chart = await plotted('live_concurrent_viewers');
    expect(chart?.type).toBe('line');
    // A day of minutes in Europe/Paris; 20:00Z is 21:00 there.
    expect(chart?.labels).toHaveLength(1440);
    const nine = chart!.labels.indexOf('Sun 22 Nov, 21:00');
    expect(nine).toBe(21 * 60);
    expect(chart?.datasets.map((d) => d.label)).toEqual(['web']);
    const points = chart!.datasets[0]!.data;
    expect(points.slice(nine - 1, nine + 3)).toEqual([0, 3, 2, 0]);
    expect(Math.max(...points.map(Number))).toBe(3);
  });

  it('plots one line per device for views, and every metric with a chart has one', async () => {
    const views = await plotted('views');
    expect(views?.datasets.map((d) => d.label)).toEqual(['web', 'ios']);
    const nine = views!.labels.indexOf('Sun 22 Nov, 21:00');
    expect(views!.datasets[0]!.data.slice(nine, nine + 3)).toEqual([1, 1, 0]);
    expect(views!.datasets[1]!.data.slice(nine, nine + 3)).toEqual([0, 0, 1]);
    const startup = await plotted('startup_time');
    expect(startup!.datasets.find((d) => d.label === 'web')!.data.slice(nine, nine + 3)).toEqual([
      800,
      800,
      null,
    ]);
    for (const name of [
      'unique_viewers',
      'playing_time',
      'watch_time',
      'rebuffering',
      'exits_before_start',
      'playback_failures',
    ])
      expect(await plotted(name), name).toBeDefined();
  });

  it('titles each y axis with a unit that fits beside it, and ticks counts in whole numbers', async () => {
    const axes = await page.evaluate(() => {
      const { Chart, document } = globalThis as unknown as { Chart: any; document: any };
      return [...document.querySelectorAll('canvas')].map((canvas: any) => {
        const chart = Chart.getChart(canvas);
        const { title } = chart.options.scales.y;
        chart.ctx.font = Chart.helpers.toFont(title.font).string;
        return {
          name: canvas.id.replace('chart-', ''),
          title: title.text as string,
          titleWidth: chart.ctx.measureText(title.text).width as number,
          axisHeight: chart.scales.y.height as number,
          ticks: chart.scales.y.ticks.map((t: { value: number }) => t.value) as number[],
        };
      });
    });
    expect(axes).toHaveLength(13);
    for (const axis of axes) expect(axis.titleWidth, axis.title).toBeLessThan(axis.axisHeight);
    expect(Object.fromEntries(axes.map((a) => [a.name, a.title]))).toMatchObject({
      exits_before_start: '% of sessions started',
      rebuffering: '% of viewing time',
      views: 'sessions',
      startup_time: 'ms',
    });
    for (const name of ['views', 'unique_viewers', 'live_concurrent_viewers']) {
      const { ticks } = axes.find((a) => a.name === name)!;
      expect(ticks.length, name).toBeGreaterThan(1);
      expect(
        ticks.filter((t) => !Number.isInteger(t)),
        name,
      ).toEqual([]);
    }
  });

  it('draws every chart in a full-page capture, those below the first screen included (no scrolling)', async () => {
    // As a capture tool does: the window as tall as the page, then one shot (no scrolling).
    const height = await page.evaluate(
      () => (globalThis as unknown as { document: any }).document.documentElement.scrollHeight as number,
    );
    await page.setViewportSize({ width: 1280, height });
    const shot = (await page.screenshot()).toString('base64');
    const boxes = await page.locator('canvas').evaluateAll((canvases) =>
      canvases.map((c) => {
        const r = c.getBoundingClientRect();
        const { scrollX, scrollY } = globalThis as unknown as { scrollX: number; scrollY: number };
        return { id: c.id, x: r.x + scrollX, y: r.y + scrollY, w: r.width, h: r.height };
      }),
    );
    expect(boxes.at(-1)!.y).toBeGreaterThan(720 * 3); // far below the first screen
    // Non-white pixels of each chart's box in the capture: axes, labels and lines drawn.
    const inked = await page.evaluate(
      async ({ png, boxes }) => {
        const { Image, document } = globalThis as unknown as { Image: any; document: any };
        const image = new Image();
        image.src = `data:image/png;base64,${png}`;
        await image.decode();
        const canvas = document.createElement('canvas');
        canvas.width = image.width;
        canvas.height = image.height;
        const ctx = canvas.getContext('2d');
        ctx.drawImage(image, 0, 0);
        return boxes.map(({ id, x, y, w, h }) => {
          const { data } = ctx.getImageData(Math.round(x), Math.round(y), Math.round(w), Math.round(h));
          let ink = 0;
          for (let i = 0; i < data.length; i += 4) if (data[i] < 200 || data[i + 1] < 200) ink++;
          return [id, ink] as const;
        });
      },
      { png: shot, boxes },
    );
    for (const [id, ink] of inked) expect(ink, id).toBeGreaterThan(500);
  });

  it('shows each metric with its definition and unit, the period in the zone, and titles instead of ids', async () => {
    const text = await page.locator('body').innerText();
    expect(text).toContain('Period: Sun, 22 Nov 2026 00:00 to Sun, 22 Nov 2026 24:00 (Europe/Paris)');
    expect(await page.locator('section').count()).toBe(14);
    for (const section of await page.locator('section').all()) {
      expect(await section.locator('.definition').innerText()).toMatch(/\S.+Unit: \S+/);
    }
    const top = await page.locator('#top_content table').innerText();
    expect(top).toContain('Office Sketches: Episode 1');
    expect(top).not.toContain('ep_0001');
    expect(await page.locator('#live_concurrent_viewers table').innerText()).toMatch(/web\s+3/);
    expect(text).not.toMatch(/\b1\d{12}\b/); // no epoch milliseconds anywhere on the page
  });
});
