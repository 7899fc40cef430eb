/**
 * Cold starts as Lambda has them (issue 19): for each public sample request (bench/requests.ts), a
 * fresh Node 22 process (the nodejs22.x runtime, scripts/fetch-node22.ts) imports its function's
 * bundle (init) and serves that one API Gateway event against DynamoDB Local with the demo
 * catalogue (first request); the fair floor bundle (ENV_FLOOR) the same way, right before each
 * function, so every ratio is paired as the cold imports are (bench/bundles.ts). Full run only (`npm run bench`): it
 * needs DynamoDB Local and a seeded table, which the --fast CI part must not wait for.
 *
 * The children reach DynamoDB Local over HTTPS (bench/tls-front.ts), as a function reaches DynamoDB
 * on Lambda: a TLS handshake per new socket and Node's first secure context count, as they do
 * there. Over plain http the SDK's first request imported node:http, whose ESM facade loads Node's
 * bundled undici (~25-45 ms of CPU in every child) that Lambda never pays; a child that loads
 * undici anyway reports it, and bench/check.ts refuses its row.
 */
import { execFile, execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { matchRoute, toEvent } from '../scripts/local/server.ts';
import { startDynamoDbLocal } from '../scripts/local/dynamodb-local.ts';
import { ensureNode22 } from '../scripts/fetch-node22.ts';
import { createTable } from '../shared/db/create-table.ts';
import { commonEnvironment } from '../shared/platform/access.ts';
import { BENCH_DIR, type BundleInfo, ENV_FLOOR, median } from './bundles.ts';
import { buildDataFloor, phasesOfCalls, recordingFront } from './data-floor.ts';
import { replayable } from './data-floor-handler.ts';
import { loadWithoutStream } from './load.ts';
import { SAMPLE_REQUESTS } from './requests.ts';
import { startTlsFront } from './tls-front.ts';

const execFileAsync = promisify(execFile);
const TABLE = 'bench-lambda-init';
const CDN_URL = 'https://cdn.example.com';

/** What one fresh process reports: ms to import the bundle, ms to answer, ms since the process began. */
interface Sample {
  initMs: number;
  firstRequestMs: number;
  sinceProcessStartMs: number;
  statusCode: number;
  /** Whether the process loaded Node's bundled undici (the http facade's artefact, never on Lambda). */
  undici: boolean;
}

const CHILD = `const t0 = performance.now();
const { handler } = await import(process.argv[1]);
const t1 = performance.now();
const response = await handler(JSON.parse(process.argv[2]), {});
const t2 = performance.now();
process.stdout.write('\\n@@' + JSON.stringify({ initMs: t1 - t0, firstRequestMs: t2 - t1, sinceProcessStartMs: t2, statusCode: response.statusCode, undici: process.moduleLoadList.includes('NativeModule internal/deps/undici/undici') }));`;

export interface LambdaInitRow {
  name: string;
  function: string;
  initMs: number;
  firstRequestMs: number;
  sinceProcessStartMs: number;
  /** Median of paired (init + first request) / the floor's. */
  ratio: number;
  statusCode: number;
  /** True if any run of the function or of its paired floor loaded undici: the row cannot count. */
  undici: boolean;
  /** The DynamoDB calls of the first request and their phases (bench/critical-path.ts). */
  calls: number;
  phases: number;
  /** The data floor's init + first request: the floor's client making just those calls (bench/data-floor.ts). */
  dataFloorMs: number;
  /** Median of paired (init + first request) / the data floor's: what our code adds to the route's own reads. */
  dataFloorRatio: number;
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
  const front = await startTlsFront(Number(new URL(local.endpoint).port)).catch(async (error) => {
    await local.stop();
    throw error;
  });
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
      // HTTPS, as on Lambda; the self-signed certificate is trusted as Lambda lets a function
      // trust one (a harness setting: no function reads it).
      NODE_EXTRA_CA_CERTS: front.caFile,
      // Every client finds DynamoDB Local this way (the SDK's own setting), as on Lambda none is set.
      AWS_ENDPOINT_URL_DYNAMODB: front.endpoint,
      TABLE_NAME: TABLE,
      ...commonEnvironment({
        stage: 'dev',
        siteUrl: 'https://creators.example.com',
        cdnUrl: CDN_URL,
      }),
    };
    // The function's own log lines share stdout: the figures are the line marked `@@`. Not
    // execFileSync: the TLS front runs on this process's event loop.
    const serve = async (file: string, event: unknown, endpoint = front.endpoint): Promise<Sample> => {
      const { stdout } = await execFileAsync(
        node,
        ['--input-type=module', '-e', CHILD, file, JSON.stringify(event)],
        {
          env: { ...env, AWS_ENDPOINT_URL_DYNAMODB: endpoint },
          encoding: 'utf8',
        },
      );
      return JSON.parse(stdout.slice(stdout.lastIndexOf('\n@@') + 3));
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
    // Each function's first-request calls, recorded once (untimed) through a plain-http front, for
    // its data floor; the timed runs below all go through the TLS front.
    const dataFloor = await buildDataFloor(join(BENCH_DIR, 'bundles-data-floor'));
    // Each call held 25 ms, so calls the code starts together are recorded as one phase.
    const recorder = await recordingFront(local.endpoint, { delayMs: 25 });
    const callsOf = new Map<string, { count: number; phases: ReturnType<typeof phasesOfCalls> }>();
    try {
      for (const job of jobs) {
        const sample = await serve(job.bundle.file, job.event, recorder.endpoint);
        const calls = recorder.take();
        const unknown = calls.filter((c) => !replayable(c.op));
        if (sample.statusCode !== 200 || unknown.length > 0)
          throw new Error(
            `${job.name}: status ${sample.statusCode}; calls the data floor cannot replay: ${unknown.map((c) => c.op).join(', ') || 'none'}`,
          );
        callsOf.set(job.name, { count: calls.length, phases: phasesOfCalls(calls) });
      }
    } finally {
      await recorder.close();
    }
    const floorSamples: Sample[] = [];
    const samples = new Map(
      jobs.map((j) => [
        j.name,
        {
          runs: [] as Sample[],
          ratios: [] as number[],
          undici: false,
          dataFloor: [] as number[],
          dataRatios: [] as number[],
        },
      ]),
    );
    const total = (s: Sample) => s.initMs + s.firstRequestMs;
    for (let run = 0; run < runs; run++) {
      for (const job of jobs) {
        const f = await serve(floor.file, {});
        const d = await serve(dataFloor, { phases: callsOf.get(job.name)!.phases });
        const s = await serve(job.bundle.file, job.event);
        floorSamples.push(f);
        const row = samples.get(job.name)!;
        row.runs.push(s);
        row.undici ||= f.undici || s.undici || d.undici;
        row.ratios.push(total(s) / total(f));
        row.dataFloor.push(total(d));
        row.dataRatios.push(total(s) / total(d));
      }
    }
    const med = (list: Sample[], key: 'initMs' | 'firstRequestMs' | 'sinceProcessStartMs') =>
      median(list.map((s) => s[key]));
    const floorRow: Sample = {
      initMs: med(floorSamples, 'initMs'),
      firstRequestMs: med(floorSamples, 'firstRequestMs'),
      sinceProcessStartMs: med(floorSamples, 'sinceProcessStartMs'),
      statusCode: floorSamples[0]?.statusCode ?? 0,
      undici: floorSamples.some((s) => s.undici),
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
        undici: s.undici,
        calls: callsOf.get(job.name)!.count,
        phases: callsOf.get(job.name)!.phases.length,
        dataFloorMs: median(s.dataFloor),
        dataFloorRatio: median(s.dataRatios),
      };
    });
    const fmt = (n: number) => n.toFixed(1);
    const markdown = [
      '',
      '## Lambda-like cold start (fresh Node 22 process, one request against DynamoDB Local over HTTPS)',
      '',
      `${nodeVersion}; ${runs} paired runs; the floor (document client + one GetItem, built as the functions are: ${floor.name}): init ${fmt(floorRow.initMs)} ms, first request ${fmt(floorRow.firstRequestMs)} ms, ${fmt(floorRow.sinceProcessStartMs)} ms from process start.`,
      `Median ratio over ${rows.length} functions: **${median(rows.map((r) => r.ratio)).toFixed(2)}x** the floor (init + first request).`,
      `Against each function's data floor (the floor's client making just the DynamoDB calls that function's first request made, in its phases, items converted as the document client does: bench/data-floor.ts): median **${median(rows.map((r) => r.dataFloorRatio)).toFixed(2)}x**. The data floor is the floor plus the route's own reads; what a function takes beyond it is our code (middy, Zod, the domain, the response).`,
      '',
      '| request | function | status | calls (phases) | init ms | first request ms | from process start ms | data floor ms | ratio to floor | ratio to data floor |',
      '|---|---|---|---|---|---|---|---|---|---|',
      ...[...rows]
        .sort((a, b) => b.ratio - a.ratio)
        .map(
          (r) =>
            `| ${r.name} | ${r.function} | ${r.statusCode}${r.undici ? ' (undici loaded: not counted)' : ''} | ${r.calls} (${r.phases}) | ${fmt(r.initMs)} | ${fmt(r.firstRequestMs)} | ${fmt(r.sinceProcessStartMs)} | ${fmt(r.dataFloorMs)} | ${r.ratio.toFixed(2)} | ${r.dataFloorRatio.toFixed(2)} |`,
        ),
    ];
    return {
      report: { lambdaInit: { node: nodeVersion, floorName: floor.name, floor: floorRow, rows } },
      markdown,
    };
  } finally {
    await front.stop();
    await local.stop();
  }
};
