/**
 * `npm run analytics -- <metric>` prints one metric over the local analytics files (DuckDB);
 * `npm run analytics -- report` writes .local/analytics-report/index.html with every metric and
 * charts; `npm run analytics -- list` names the metrics, as does `npm run analytics` alone when
 * there are events. Without events it says how to make some (exit 1). ANALYTICS_DIR overrides the
 * data folder.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { metricQueries, type Row, runMetrics } from './metrics.ts';

const dir = process.env.ANALYTICS_DIR ?? resolve(import.meta.dirname, '../.local/analytics');
const [command] = process.argv.slice(2);

/** Are there event files (family=…/dt=…/hour=…/*.ndjson) under `dir`? */
const hasEvents = (): boolean =>
  existsSync(dir) &&
  readdirSync(dir, { recursive: true, encoding: 'utf8' }).some((file) => file.endsWith('.ndjson'));

if (command !== 'list' && !hasEvents()) {
  console.error(
    `No analytics events under ${dir} yet.\n` +
      'Run `npm start` and send it player events (docs/analytics.md), then `npm run analytics -- report`; or set ANALYTICS_DIR to a folder of events.',
  );
  process.exit(1);
}

const escapeHtml = (v: unknown) => String(v ?? '').replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** A horizontal bar chart (inline SVG) of the first text column against the first numeric one. */
const chart = (rows: Row[]): string => {
  const first = rows[0];
  if (!first || rows.length < 2) return '';
  const label = Object.keys(first).find((k) => typeof first[k] === 'string');
  const value = Object.keys(first).find((k) => typeof first[k] === 'number' && k !== label);
  if (!label || !value) return '';
  const max = Math.max(...rows.map((r) => Number(r[value]) || 0), 1);
  const bars = rows.slice(0, 20).map((r, i) => {
    const width = (Number(r[value]) / max) * 360;
    return `<text x="0" y="${i * 22 + 15}" font-size="12">${escapeHtml(r[label])}</text><rect x="140" y="${i * 22 + 3}" width="${width.toFixed(1)}" height="16" fill="#6366F1"/><text x="${(145 + width).toFixed(1)}" y="${i * 22 + 15}" font-size="12">${escapeHtml(r[value])}</text>`;
  });
  return `<svg width="600" height="${Math.min(rows.length, 20) * 22 + 6}" role="img" aria-label="${escapeHtml(value)} by ${escapeHtml(label)}">${bars.join('')}</svg>`;
};

const table = (rows: Row[]): string => {
  if (rows.length === 0) return '<p>No rows.</p>';
  const columns = Object.keys(rows[0]!);
  return `<table><tr>${columns.map((c) => `<th>${escapeHtml(c)}</th>`).join('')}</tr>${rows
    .map((r) => `<tr>${columns.map((c) => `<td>${escapeHtml(r[c])}</td>`).join('')}</tr>`)
    .join('')}</table>`;
};

if (command === undefined || command === 'list') {
  if (command === undefined) console.log('npm run analytics -- <metric> | report. Metrics:');
  console.log([...metricQueries().keys()].join('\n'));
} else if (command === 'report') {
  const results = await runMetrics(dir);
  const sections = [...results].map(
    ([name, rows]) => `<section><h2>${escapeHtml(name)}</h2>${chart(rows)}${table(rows)}</section>`,
  );
  const out = resolve(import.meta.dirname, '../.local/analytics-report');
  mkdirSync(out, { recursive: true });
  writeFileSync(
    join(out, 'index.html'),
    `<!doctype html><meta charset="utf-8"><title>Viewing quality report</title><style>body{font:14px system-ui;margin:2rem;max-width:960px}table{border-collapse:collapse;margin:.5rem 0 2rem}td,th{border:1px solid #ddd;padding:4px 8px;text-align:left}</style><h1>Viewing quality report</h1><p>Generated ${new Date().toISOString()} from ${escapeHtml(dir)}.</p>${sections.join('')}`,
  );
  console.log(`wrote ${join(out, 'index.html')}`);
} else {
  const rows = (await runMetrics(dir, [command])).get(command);
  if (!rows) {
    console.error(`Unknown metric ${command}. Metrics: ${[...metricQueries().keys()].join(', ')}`);
    process.exit(2);
  }
  console.table(rows);
}
