/**
 * Cold starts as Lambda has them (issue 19): for each public sample request (bench/requests.ts), a
 * fresh Node 22 process (the nodejs22.x runtime, scripts/fetch-node22.ts) imports its function's
 * bundle (init) and serves that one API Gateway event against DynamoDB Local with the demo
 * catalogue (first request); the fair floor bundle (ENV_FLOOR) the same way, right before each
 * function, so every ratio is paired as the cold imports are (bench/bundles.ts). Full run only (`npm run bench`): it
 * needs DynamoDB Local and a seeded table, which the --fast CI part must not wait for.
 */
import { execFileSync } from 'node:child_process';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { matchRoute, toEvent } from '../scripts/local/server.ts';
import { startDynamoDbLocal } from '../scripts/local/dynamodb-local.ts';
import { ensureNode22 } from '../scripts/fetch-node22.ts';
import { createTable } from '../shared/db/create-table.ts';
import { commonEnvironment } from '../shared/platform/access.ts';
import { type BundleInfo, ENV_FLOOR, median } from './bundles.ts';
import { loadWithoutStream } from './load.ts';
import { SAMPLE_REQUESTS } from './requests.ts';

const TABLE = 'bench-lambda-init';
const CDN_URL = 'https://cdn.example.com';

/** What one fresh process reports: ms to import the bundle, ms to answer, ms since the process began. */
interface Sample {
  initMs: number;
  firstRequestMs: number;
  sinceProcessStartMs: number;
  statusCode: number;
}

const CHILD = `const t0 = performance.now();
const { handler } = await import(process.argv[1]);
const t1 = performance.now();
const response = await handler(JSON.parse(process.argv[2]), {});
const t2 = performance.now();
process.stdout.write('\\n@@' + JSON.stringify({ initMs: t1 - t0, firstRequestMs: t2 - t1, sinceProcessStartMs: t2, statusCode: response.statusCode }));`;

export interface LambdaInitRow {
  name: string;
  function: string;
  initMs: number;
  firstRequestMs: number;
  sinceProcessStartMs: number;
  /** Median of paired (init + first request) / the floor's. */
  ratio: number;
  statusCode: number;
}

export const runLambdaInit = async (
  bundles: readonly BundleInfo[],
  runs: number,
): Promise<{
  report: { lambdaInit: { node: string; floorName: string; floor: Sample; rows: LambdaInitRow[] } };
  markdown: string[];
}> => {
  const node = ensureNode22();
  const nodeVersion = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  const local = await startDynamoDbLocal();
  try {
    const admin = new DynamoDBClient({
      endpoint: local.endpoint,
      region: 'local',
      credentials: { accessKeyId: 'l', secretAccessKey: 'l' },
    });
    await createTable(admin, TABLE);
    // In a process of its own: the shared document client binds its endpoint once per process.
    await loadWithoutStream(
      admin,
      TABLE,
      async () =>
        execFileSync(process.execPath, ['--import', 'tsx', 'scripts/seed.ts'], {
          // The seed requires CDN_URL since issue 33 (the catalogue's media URLs are under it); the
          // functions below get the same one (commonEnvironment's cdnUrl).
          env: {
            ...process.env,
            AWS_ENDPOINT_URL_DYNAMODB: local.endpoint,
            TABLE_NAME: TABLE,
            AWS_REGION: 'local',
            CDN_URL: CDN_URL,
          },
          stdio: 'ignore',
        }),
      { streamAfter: false },
    );
    // The functions' Lambda environment, as far as a local run can have it: no NODE_OPTIONS, as the
    // stack sets none since issue 41 (no --enable-source-maps: test/infra/stack.test.ts).
    const env = {
      PATH: '/usr/local/bin:/usr/bin:/bin',
      TZ: ':UTC',
      AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
      AWS_REGION: 'us-east-1',
      AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '256',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      // The floor's plain client finds DynamoDB Local this way (the SDK's own setting).
      AWS_ENDPOINT_URL_DYNAMODB: local.endpoint,
      TABLE_NAME: TABLE,
      ...commonEnvironment({
        stage: 'dev',
        siteUrl: 'https://creators.example.com',
        cdnUrl: CDN_URL,
      }),
    };
    // The function's own log lines share stdout: the figures are the line marked `@@`.
    const serve = (file: string, event: unknown): Sample => {
      const out = execFileSync(node, ['--input-type=module', '-e', CHILD, file, JSON.stringify(event)], {
        env,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      return JSON.parse(out.slice(out.lastIndexOf('\n@@') + 3));
    };
    // The fair floor: the floor handler built as the functions are (issue 41).
    const floor = bundles.find((b) => b.name === ENV_FLOOR)!;
    const byHandler = new Map(bundles.map((b) => [b.name, b]));
    const jobs = SAMPLE_REQUESTS.filter((s) => !s.auth).flatMap((s) => {
      const url = new URL(`http://127.0.0.1${s.path}`);
      for (const [name, value] of Object.entries(s.query ?? {})) url.searchParams.set(name, value);
      const match = matchRoute('GET', url.pathname);
      // Rows that need more of AWS than the table (signing keys, streams) are left out: only
      // DynamoDB runs locally here, and the floor is a DynamoDB function.
      const bundle = match && !match.row.needs?.length && byHandler.get(match.row.handler);
      if (!match || !bundle) return [];
      const event = toEvent(
        { method: 'GET', url, headers: { 'user-agent': 'bench' }, body: undefined },
        match.row,
        match.pathParameters,
      );
      return [{ name: s.name, bundle, event }];
    });
    const floorSamples: Sample[] = [];
    const samples = new Map(jobs.map((j) => [j.name, { runs: [] as Sample[], ratios: [] as number[] }]));
    for (let run = 0; run < runs; run++) {
      for (const job of jobs) {
        const f = serve(floor.file, {});
        const s = serve(job.bundle.file, job.event);
        floorSamples.push(f);
        samples.get(job.name)!.runs.push(s);
        samples.get(job.name)!.ratios.push((s.initMs + s.firstRequestMs) / (f.initMs + f.firstRequestMs));
      }
    }
    const med = (list: Sample[], key: keyof Sample) => median(list.map((s) => s[key]));
    const floorRow: Sample = {
      initMs: med(floorSamples, 'initMs'),
      firstRequestMs: med(floorSamples, 'firstRequestMs'),
      sinceProcessStartMs: med(floorSamples, 'sinceProcessStartMs'),
      statusCode: floorSamples[0]?.statusCode ?? 0,
    };
    const rows: LambdaInitRow[] = jobs.map((job) => {
      const s = samples.get(job.name)!;
      return {
        name: job.name,
        function: job.bundle.name,
        initMs: med(s.runs, 'initMs'),
        firstRequestMs: med(s.runs, 'firstRequestMs'),
        sinceProcessStartMs: med(s.runs, 'sinceProcessStartMs'),
        ratio: median(s.ratios),
        statusCode: s.runs[0]?.statusCode ?? 0,
      };
    });
    const fmt = (n: number) => n.toFixed(1);
    const markdown = [
      '',
      '## Lambda-like cold start (fresh Node 22 process, one request against DynamoDB Local)',
      '',
      `${nodeVersion}; ${runs} paired runs; the floor (document client + one GetItem, built as the functions are: ${floor.name}): init ${fmt(floorRow.initMs)} ms, first request ${fmt(floorRow.firstRequestMs)} ms, ${fmt(floorRow.sinceProcessStartMs)} ms from process start.`,
      `Median ratio over ${rows.length} functions: **${median(rows.map((r) => r.ratio)).toFixed(2)}x** the floor (init + first request).`,
      '',
      '| request | function | status | init ms | first request ms | from process start ms | ratio to floor |',
      '|---|---|---|---|---|---|---|',
      ...[...rows]
        .sort((a, b) => b.ratio - a.ratio)
        .map(
          (r) =>
            `| ${r.name} | ${r.function} | ${r.statusCode} | ${fmt(r.initMs)} | ${fmt(r.firstRequestMs)} | ${fmt(r.sinceProcessStartMs)} | ${r.ratio.toFixed(2)} |`,
        ),
    ];
    return {
      report: { lambdaInit: { node: nodeVersion, floorName: floor.name, floor: floorRow, rows } },
      markdown,
    };
  } finally {
    await local.stop();
  }
};
