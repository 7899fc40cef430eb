import { formatDuration } from '../shared/format.ts';
import { DIMENSIONS, type Dimension, GRAINS, type Grain, type Metric, type Row } from './metrics.ts';
import { bucketStarts, formatBucket, type OffsetChange } from './period.ts';

/**
 * The analyst's report (pure: everything it shows is an argument): one self-contained HTML page
 * with, per metric, its definition and unit, a line chart over time (one line per value of the
 * breakdown; chart.js, inlined) and a breakdown table over the whole period. Times are shown in
 * the chosen zone; titles come from the title dimension. Each chart is a canvas
 * `#chart-<metric>`, so `Chart.getChart('chart-<metric>')` reads what it plots.
 */
export interface MetricResult {
  metric: Metric;
  /** Rows at the chosen grain (the chart). */
  series: Row[];
  /** Rows over the whole period (the table). */
  totals: Row[];
}

export interface ReportInput {
  from: string;
  to: string;
  zone: string;
  grain: Exclude<Grain, 'total'>;
  by?: Dimension;
  fromMs: number;
  toMs: number;
  offsetMs: number;
  /** The zone's offset changes in the period (daylight saving time), `offsetChanges`. */
  offsetChanges?: readonly OffsetChange[];
  generatedAt: Date;
  source: string;
  results: MetricResult[];
  /** chart.js's minified UMD file, inlined. */
  chartJs: string;
}

/**
 * The order of the report's sections: volume, then quality of experience, then live and top
 * content, then payments (per creator).
 */
export const REPORT_ORDER = [
  'views',
  'unique_viewers',
  'playing_time',
  'watch_time',
  'startup_time',
  'exits_before_start',
  'playback_failures',
  'rebuffering',
  'live_concurrent_viewers',
  'top_content',
  'revenue',
  'mrr',
  'new_subscribers',
  'churned_subscribers',
];

/** The most buckets a chart may have (a minute grain over a day is 1,440). */
export const MAX_BUCKETS = 3000;

/**
 * The starts of every bucket of the period at `grain`, aligned to the zone's local wall time
 * across its offset changes (`bucketStarts`).
 */
export const bucketsOf = (
  fromMs: number,
  toMs: number,
  grain: Exclude<Grain, 'total'>,
  offsetMs: number,
  changes: readonly OffsetChange[] = [],
) => {
  const size = GRAINS[grain];
  // Counted before they are made (a minute grain over a year would be 525,600).
  const count = Math.ceil((toMs - (Math.floor((fromMs + offsetMs) / size) * size - offsetMs)) / size);
  if (count > MAX_BUCKETS)
    throw new Error(
      `${count} ${grain}s in the period: choose a coarser --grain (at most ${MAX_BUCKETS} buckets)`,
    );
  return bucketStarts(fromMs, toMs, size, offsetMs, changes);
};

const escapeHtml = (v: unknown) => String(v ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** JSON safe inside a <script> element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

const number = (v: number) => v.toLocaleString('en-GB', { maximumFractionDigits: 3 });

/** A cell as people read it: seconds also as h:mm:ss, milliseconds with their unit. */
const cell = (column: string, value: Row[string]): string => {
  if (typeof value !== 'number') return escapeHtml(value ?? '—');
  if (column.endsWith('_seconds')) return `${number(value)} s <small>(${formatDuration(value)})</small>`;
  if (column.includes('_ms')) return `${number(value)} ms`;
  if (column.includes('percentage')) return `${number(value)} %`;
  return number(value);
};

const HIDDEN = new Set(['bucket_ms', 'content_id']);

const table = (rows: Row[], dimensionLabel: string): string => {
  if (rows.length === 0) return '<p class="empty">No data in this period.</p>';
  const columns = Object.keys(rows[0]!).filter((c) => !HIDDEN.has(c));
  const head = (c: string) => (c === 'dimension' ? dimensionLabel : c.replace(/_/g, ' '));
  return `<table><thead><tr>${columns.map((c) => `<th>${escapeHtml(head(c))}</th>`).join('')}</tr></thead><tbody>${rows
    .map((r) => `<tr>${columns.map((c) => `<td>${cell(c, r[c] ?? null)}</td>`).join('')}</tr>`)
    .join('')}</tbody></table>`;
};

/** The totals table ordered by its charted value, largest first. */
const sortedTotals = (result: MetricResult): Row[] => {
  const column = result.metric.chart;
  return column
    ? [...result.totals].sort((a, b) => Number(b[column] ?? -1) - Number(a[column] ?? -1))
    : result.totals;
};

/** A row's series: its breakdown value, and the store when the metric splits by it (revenue). */
const seriesOf = (row: Row): string =>
  row.store === undefined ? String(row.dimension) : `${String(row.dimension)} · ${String(row.store)}`;

/** The chart's data: one labelled point per bucket, one dataset per breakdown value (and store). */
export const chartData = (
  result: MetricResult,
  buckets: number[],
  zone: string,
  grain: Exclude<Grain, 'total'>,
) => {
  const column = result.metric.chart!;
  const values = new Map<string, Map<number, number>>();
  for (const row of result.series) {
    const key = seriesOf(row);
    if (!values.has(key)) values.set(key, new Map());
    values.get(key)!.set(Number(row.bucket_ms), Number(row[column]));
  }
  // Largest first (by the period's total where there is one), so colours are stable and meaningful.
  const order = new Map(sortedTotals(result).map((r, i) => [seriesOf(r), i]));
  const keys = [...values.keys()].sort(
    (a, b) => (order.get(a) ?? 1e9) - (order.get(b) ?? 1e9) || a.localeCompare(b),
  );
  return {
    labels: buckets.map((b) => formatBucket(b, zone, grain)),
    datasets: keys.map((key) => ({
      label: key,
      data: buckets.map((b) => values.get(key)!.get(b) ?? (result.metric.gapsAreZero ? 0 : null)),
    })),
    column,
    unit: result.metric.unit,
    axis: result.metric.axis,
    /** Counts of viewers or sessions: whole-number ticks (no "0.2 sessions"). */
    integer: COUNT_UNITS.has(result.metric.axis),
  };
};

/** Units that count things: their charts tick in whole numbers. */
const COUNT_UNITS = new Set(['viewers', 'sessions']);

const PAGE_SCRIPT = `
const data = JSON.parse(document.getElementById('report-data').textContent);
const palette = ['#4f46e5','#059669','#dc2626','#d97706','#0891b2','#7c3aed','#db2777','#65a30d','#475569','#ea580c','#0d9488','#9333ea'];
for (const [name, chart] of Object.entries(data.charts)) {
  // A fixed size, drawn once: a responsive chart redraws on every resize (a full-page capture
  // resizes the page) and left charts below the first screen blank until scrolled to.
  const canvas = document.getElementById('chart-' + name);
  canvas.width = canvas.parentElement.clientWidth;
  canvas.height = canvas.parentElement.clientHeight;
  new Chart(canvas, {
    type: 'line',
    data: {
      labels: chart.labels,
      datasets: chart.datasets.map((d, i) => ({ ...d, borderColor: palette[i % palette.length],
        backgroundColor: palette[i % palette.length], pointRadius: chart.labels.length > 60 ? 0 : 2, tension: 0.2, spanGaps: false })),
    },
    options: {
      animation: false, responsive: false, interaction: { mode: 'index', intersect: false },
      scales: { y: { beginAtZero: true, title: { display: true, text: chart.axis },
          ticks: chart.integer ? { precision: 0 } : {} },
        x: { title: { display: true, text: data.zone }, ticks: { maxTicksLimit: 12 } } },
      plugins: { legend: { display: chart.datasets.length > 1 || chart.datasets[0]?.label !== 'all' } },
    },
  });
}
`;

/** The report page. */
export const reportHtml = (input: ReportInput): string => {
  const buckets = bucketsOf(input.fromMs, input.toMs, input.grain, input.offsetMs, input.offsetChanges);
  const dimensionLabel = input.by ? DIMENSIONS[input.by].label : 'All';
  const charts: Record<string, ReturnType<typeof chartData>> = {};
  const rank = (name: string) =>
    REPORT_ORDER.includes(name) ? REPORT_ORDER.indexOf(name) : REPORT_ORDER.length;
  const results = [...input.results].sort((a, b) => rank(a.metric.name) - rank(b.metric.name));
  const sections = results.map((result) => {
    const { metric } = result;
    if (metric.chart) charts[metric.name] = chartData(result, buckets, input.zone, input.grain);
    return `<section id="${escapeHtml(metric.name)}">
<h2>${escapeHtml(metric.label)} <code>${escapeHtml(metric.name)}</code></h2>
<p class="definition">${escapeHtml(metric.definition)} <span class="unit">Unit: ${escapeHtml(metric.unit)}.</span></p>
${metric.chart ? `<div class="chart"><canvas id="chart-${escapeHtml(metric.name)}" aria-label="${escapeHtml(metric.label)} per ${input.grain}, by ${escapeHtml(dimensionLabel.toLowerCase())}"></canvas></div>` : ''}
<h3>${metric.chart ? `Whole period by ${escapeHtml(dimensionLabel.toLowerCase())}` : `By ${escapeHtml(dimensionLabel.toLowerCase())}`}</h3>
${table(sortedTotals(result), dimensionLabel)}
</section>`;
  });
  const period = `${formatBucket(input.fromMs, input.zone, 'day')} 00:00 to ${formatBucket(input.toMs - 1, input.zone, 'day')} 24:00`;
  const data = { zone: input.zone, grain: input.grain, by: input.by ?? null, charts };
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Viewing quality ${escapeHtml(input.from)} to ${escapeHtml(input.to)}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:1080px;padding:0 1rem;color:#111827}
h1{margin-bottom:.25rem}h2{margin:2.5rem 0 .25rem;font-size:1.25rem}h2 code{font-size:.8rem;color:#6b7280;font-weight:normal}
h3{font-size:.95rem;margin:1rem 0 .25rem;color:#374151}.meta{color:#4b5563}.definition{color:#374151;margin:.25rem 0 .75rem}
.unit{color:#6b7280}.chart{position:relative;height:300px}table{border-collapse:collapse;margin:.25rem 0 1rem;font-variant-numeric:tabular-nums}
td,th{border-bottom:1px solid #e5e7eb;padding:4px 10px;text-align:left}th{background:#f9fafb;font-weight:600}.empty{color:#6b7280}
nav a{margin-right:.75rem}
</style></head><body>
<h1>Viewing quality</h1>
<p class="meta">Period: <strong>${escapeHtml(period)}</strong> (${escapeHtml(input.zone)}), per ${input.grain}, broken down by <strong>${escapeHtml(dimensionLabel.toLowerCase())}</strong>. Generated ${escapeHtml(formatBucket(input.generatedAt.getTime(), input.zone, 'minute'))} from ${escapeHtml(input.source)}.</p>
<nav>${results.map((r) => `<a href="#${escapeHtml(r.metric.name)}">${escapeHtml(r.metric.label)}</a>`).join('')}</nav>
${sections.join('\n')}
<script>${input.chartJs}</script>
<script type="application/json" id="report-data">${scriptJson(data)}</script>
<script>${PAGE_SCRIPT}</script>
</body></html>
`;
};
