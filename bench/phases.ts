import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { SampleRequest } from './requests.ts';
import { type PhaseBudget, phasesOf, phaseTable } from './critical-path.ts';
import type { Call } from './warm.ts';

/**
 * Dependent DynamoDB phases per endpoint (issue 41): how many round trips to the table a request
 * waits for one after another (`phasesOf`). A count, not a timing, so it holds on a
 * loaded machine and `npm run bench:check -- --fast` (CI) checks it against bench/budget.json
 * (`dbPhases`). Two sets: every catalogue sample of bench/requests.ts (warm, as the warm table
 * measures them), and the watch flow on a channel live through the IVS stand-in, each request
 * run as its function (its own container caches and IAM policy, scripts/local/aws.ts): open
 * (empty slots, then a slot its ended session holds), heartbeats (the EPG not yet cached in the
 * container, cached, the first beat of the next viewer-count bucket), PATCH and DELETE.
 */
export interface PhaseRow {
  name: string;
  route: string;
  status: number;
  phases: number;
  calls: number;
  commands: string[];
  error?: string;
}

const rowOf = (name: string, route: string, status: number, calls: Call[]) => ({
  name,
  route,
  status,
  phases: phasesOf(calls),
  calls: calls.length,
  commands: [...calls].sort((a, b) => a.start - b.start).map((c) => c.name.replace(/Command$/, '')),
});

/** Measures the phases on the local platform already running (AWS_ENDPOINT_URL_DYNAMODB, TABLE_NAME set). */
export const measurePhases = async (options: {
  samples: readonly SampleRequest[];
  token: string;
  /** A creator live through the IVS stand-in whose channel is open to everyone. */
  live: { id: string; channel: string };
}): Promise<PhaseRow[]> => {
  const { clock } = await import('../shared/clock.ts');
  const { loadHandler, matchRoute, toEvent } = await import('../scripts/local/server.ts');
  const { functionContext, runAsFunction } = await import('../scripts/local/aws.ts');
  const { issueAccessToken } = await import('../shared/identity/access-token.ts');
  const { BUCKET_SECONDS } = await import('../shared/audience/viewer-counter.ts');
  const { measureWarm, recordCalls } = await import('./warm.ts');
  const rows: PhaseRow[] = [];
  const log = (what: string) => console.error(`[bench] ${new Date().toISOString()} phases: ${what}`);
  log('catalogue samples');
  for (const w of await measureWarm(options.samples, { iterations: 0, token: options.token }))
    rows.push({
      name: w.name,
      route: w.route,
      status: w.status,
      phases: w.phases,
      calls: w.calls,
      commands: w.commands,
      ...(w.error === undefined ? {} : { error: w.error }),
    });

  const { token } = await issueAccessToken(`acc_phases_${randomUUID()}`, new Date());
  const send = async (method: string, path: string, body?: unknown) => {
    const url = new URL(`http://127.0.0.1${path}`);
    const match = matchRoute(method, url.pathname);
    if (!match) throw new Error(`No route for ${method} ${path}`);
    const handler = await loadHandler(match.row);
    const event = toEvent(
      {
        method,
        url,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      },
      match.row,
      match.pathParameters,
    );
    const { result, calls } = await recordCalls(() =>
      runAsFunction(functionContext(match.row), () => handler(event)),
    );
    return {
      route: `${match.row.method} ${match.row.path}`,
      status: result.statusCode ?? 0,
      body: result.body,
      calls,
    };
  };
  const live = `/creators/${options.live.id}/channel/live`;
  const step = async (name: string, method: string, path: string, body?: unknown) => {
    log(name);
    const r = await send(method, path, body);
    rows.push(rowOf(name, r.route, r.status, r.calls));
    if (r.status >= 300) throw new Error(`${name}: ${method} ${path} answered ${r.status} ${r.body}`);
    return JSON.parse(String(r.body)) as { data: Record<string, unknown> };
  };
  const open = () =>
    step('watch open', 'POST', `${live}/watch`, {
      channel_id: options.live.channel,
      device_type: 'web',
      quality: '720p',
      timezone: 'UTC',
    });
  const realNow = clock.now;
  try {
    const sid = ((await open()).data.session as { session_id: string }).session_id;
    await step('live stream (playback URLs of the open session)', 'GET', `${live}/stream`);
    await step('heartbeat, EPG not cached', 'GET', `${live}/heartbeat?session_id=${sid}`);
    await step('heartbeat', 'GET', `${live}/heartbeat?session_id=${sid}`);
    // A second into the next bucket: within the lease the open gave (90 s past its bucket's end).
    const later = (Math.floor(Date.now() / 1000 / BUCKET_SECONDS) + 1) * BUCKET_SECONDS * 1000 + 1000;
    clock.now = () => new Date(later);
    await step('heartbeat, first of a bucket', 'GET', `${live}/heartbeat?session_id=${sid}`);
    await step('change quality (PATCH watch)', 'PATCH', `${live}/watch`, {
      session_id: sid,
      quality: '480p',
    });
    await step('end watch (DELETE watch)', 'DELETE', `${live}/watch?session_id=${sid}`);
    // The account's slots are all taken now by ended sessions: opens reuse them.
    for (let i = 0; i < 2; i++) {
      const again = await send('POST', `${live}/watch`, {
        channel_id: options.live.channel,
        device_type: 'web',
      });
      const id = (JSON.parse(String(again.body)).data.session as { session_id: string }).session_id;
      await send('DELETE', `${live}/watch?session_id=${id}`);
    }
    const reused = await open();
    rows.at(-1)!.name = 'watch open, slot of an ended session';
    await send(
      'DELETE',
      `${live}/watch?session_id=${(reused.data.session as { session_id: string }).session_id}`,
    );
  } finally {
    clock.now = realNow;
  }
  return rows;
};

/** The phase table of the report. */
export const phaseMarkdown = (rows: readonly PhaseRow[]): string[] => [
  '',
  '## Dependent DynamoDB phases per request',
  '',
  'Round trips to the table a request waits for one after another: the longest chain of calls each starting only after the one before it ended (bench/phases.ts). Catalogue reads warm, as in the warm table; the watch flow on a channel live through the IVS stand-in, each request run as its function.',
  '',
  ...phaseTable(rows, phaseBudget()),
];

/** bench/budget.json `dbPhases`. */
export const phaseBudget = (): PhaseBudget =>
  JSON.parse(readFileSync(join(import.meta.dirname, 'budget.json'), 'utf8')).dbPhases;

/**
 * The part of the bench that runs on the local platform with the seed's channels live through the
 * IVS stand-in (scripts/local/platform.ts, on a DynamoDB Local of its own): the phases, and with
 * `throughput` the autocannon workloads (bench/throughput.ts). A child process of `npm run bench`
 * (bench/child.ts: the shared DynamoDB client binds one endpoint per process).
 */
export const runLivePlatformBench = async (options: { throughput: boolean }) => {
  delete process.env.AWS_ENDPOINT_URL_DYNAMODB;
  delete process.env.AWS_ENDPOINT_URL_DYNAMODB_STREAMS;
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  process.env.TABLE_NAME = 'bench-live';
  process.env.LOG_LEVEL ??= 'ERROR';
  const { startLocalPlatform } = await import('../scripts/local/platform.ts');
  const platform = await startLocalPlatform({ seed: 42 });
  console.error(`[bench] ${new Date().toISOString()} local platform up`);
  try {
    const { installLocalAws, useDeploymentSettings } = await import('../scripts/local/aws.ts');
    installLocalAws();
    useDeploymentSettings();
    const { generateCatalog } = await import('../scripts/seed/generate.ts');
    const { issueAccessToken } = await import('../shared/identity/access-token.ts');
    const { SAMPLE_REQUESTS } = await import('./requests.ts');
    const creator = generateCatalog({ now: platform.seededAt, seed: 42 }).creators.find(
      (c) => c.live && !c.channel.requires_subscription,
    )!;
    const live = { id: creator.id, channel: creator.channel.channel_id };
    const { token } = await issueAccessToken('acc_demo_viewer', new Date());
    const dbPhases = await measurePhases({ samples: SAMPLE_REQUESTS, token, live });
    if (!options.throughput) return { dbPhases };
    const { measureThroughput } = await import('./throughput.ts');
    return { dbPhases, throughput: await measureThroughput({ token, live }) };
  } finally {
    await platform.stop();
  }
};

/**
 * `npx tsx bench/phases.ts [--throughput] [--json FILE]`: this part alone (the phase table, and with
 * --throughput the throughput table; exit 1 when a workload saw a status it does not expect).
 */
if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const { values } = parseArgs({
    options: { throughput: { type: 'boolean', default: false }, json: { type: 'string' } },
  });
  const result = await runLivePlatformBench({ throughput: values.throughput });
  if (values.json) {
    writeFileSync(values.json, JSON.stringify(result, null, 2));
    process.exit(0);
  }
  console.log(phaseMarkdown(result.dbPhases).join('\n'));
  if (result.throughput) {
    const { throughputFailures, throughputMarkdown } = await import('./throughput.ts');
    console.log(['', ...throughputMarkdown(result.throughput)].join('\n'));
    const failures = throughputFailures(result.throughput);
    if (failures.length > 0) {
      console.error(`Throughput workloads answered statuses they do not expect:\n  ${failures.join('\n  ')}`);
      process.exit(1);
    }
  }
  process.exit(0);
}
