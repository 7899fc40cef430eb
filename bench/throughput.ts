import autocannon from 'autocannon';

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

/** A workload's figures: only responses with the statuses it expects count as successes. */
export interface ThroughputResult {
  name: string;
  /** Successful requests per second (for the watch lifecycle: of lifecycles that succeeded whole). */
  requestsPerSecond: number;
  /** Every response per second, whatever its status. */
  responsesPerSecond: number;
  /** Watch lifecycle only: complete open, heartbeat, end lifecycles per second. */
  lifecyclesPerSecond?: number;
  p50: number;
  p99: number;
  /** Responses by status. */
  statuses: Record<string, number>;
  /** Statuses the workload does not expect, with their counts (the bench fails on any). */
  unexpected: Record<string, number>;
  errors: number;
  timeouts: number;
}

const SECONDS = 8;
const CONNECTIONS = 10;

/**
 * Requests per second and p99 of the local platform (real HTTP server, real handlers, DynamoDB
 * Local, the seed's channels live through the IVS stand-in: bench/phases.ts starts it) under
 * autocannon, bounded to a few seconds per workload, loopback only. Every response's status is
 * counted: a workload answered with anything but the statuses it expects is reported with what it
 * saw and fails the bench (issue 41: the lifecycle once measured 8,847 error responses a second).
 */
export const measureThroughput = async (options: {
  token: string;
  live: { id: string; channel: string };
}): Promise<ThroughputResult[]> => {
  const { token, live } = options;
  // Imported here: the report's functions below are used by `npm run bench` itself, whose process
  // must not create the shared DynamoDB client before its parts set their endpoints (bench/child.ts).
  const { startLocalApi } = await import('../scripts/local/server.ts');
  const { issueAccessToken } = await import('../shared/identity/access-token.ts');
  const { server, url } = await startLocalApi(0);
  // Watch lifecycle: each connection is its own viewer (the stream limit is per account) and
  // loops open -> heartbeat -> end on a channel live through the IVS stand-in.
  const viewers = await Promise.all(
    Array.from(
      { length: CONNECTIONS },
      async (_, i) => (await issueAccessToken(`acc_bench_${i}`, new Date())).token,
    ),
  );
  let nextViewer = 0;
  type Context = { token?: string; sid?: string; ok?: boolean };
  const base = `/creators/${live.id}/channel/live`;
  const as = (context: Context) => {
    context.token ??= viewers[nextViewer++ % viewers.length];
    return { authorization: `Bearer ${context.token}`, 'content-type': 'application/json' };
  };
  let lifecycles = 0;
  const workloads: Array<{ name: string; requests: autocannon.Request[] }> = [
    {
      name: 'mixed catalogue reads',
      requests: [
        { method: 'GET', path: '/creators?category=music' },
        { method: 'GET', path: '/shows?sort=trending' },
        { method: 'GET', path: '/home' },
        { method: 'GET', path: '/creators/cr_0002' },
        { method: 'GET', path: '/creators/cr_0001/channel/schedule/current' },
        { method: 'GET', path: '/shows/search?q=kitchen' },
      ],
    },
    {
      name: 'reactions summary (authenticated)',
      requests: [
        {
          method: 'GET',
          path: '/v3/reactions/summary/VIDEO/ep_0001_s1e01',
          headers: { authorization: `Bearer ${token}` },
        },
      ],
    },
    {
      name: 'watch lifecycle (open, heartbeat, end)',
      requests: [
        {
          method: 'POST',
          path: `${base}/watch`,
          setupRequest: (req, context: Context) => ({
            ...req,
            headers: as(context),
            body: JSON.stringify({ channel_id: live.channel, device_type: 'web' }),
          }),
          onResponse: (status, body, context: Context) => {
            context.ok = status === 200;
            context.sid = context.ok ? JSON.parse(body).data?.session?.session_id : undefined;
          },
        },
        {
          method: 'GET',
          setupRequest: (req, context: Context) => ({
            ...req,
            path: `${base}/heartbeat?session_id=${context.sid}`,
            headers: as(context),
          }),
          onResponse: (status, body, context: Context) => {
            context.ok =
              context.ok === true && status === 200 && JSON.parse(body).data?.session_valid === true;
          },
        },
        {
          method: 'DELETE',
          setupRequest: (req, context: Context) => ({
            ...req,
            path: `${base}/watch?session_id=${context.sid}`,
            headers: as(context),
          }),
          onResponse: (status, _body, context: Context) => {
            if (context.ok === true && status === 200) lifecycles++;
            context.ok = false;
          },
        },
      ],
    },
  ];
  const results: ThroughputResult[] = [];
  try {
    for (const workload of workloads) {
      lifecycles = 0;
      const result = await autocannon({
        url,
        connections: CONNECTIONS,
        duration: SECONDS,
        requests: workload.requests,
      });
      const statuses: Record<string, number> = {};
      for (const [code, count] of Object.entries(result.statusCodeStats ?? {}))
        statuses[code] = (count as { count: number }).count;
      const unexpected = Object.fromEntries(Object.entries(statuses).filter(([code]) => code !== '200'));
      const lifecycle = workload.name.startsWith('watch lifecycle');
      const successes = lifecycle ? lifecycles * workload.requests.length : (statuses['200'] ?? 0);
      results.push({
        name: workload.name,
        requestsPerSecond: successes / result.duration,
        responsesPerSecond: result.requests.average,
        ...(lifecycle ? { lifecyclesPerSecond: lifecycles / result.duration } : {}),
        p50: result.latency.p50,
        p99: result.latency.p99,
        statuses,
        unexpected,
        errors: result.errors,
        timeouts: result.timeouts,
      });
    }
  } finally {
    server.close();
    server.closeAllConnections();
  }
  return results;
};

/** Workloads that saw statuses they do not expect, errors or timeouts, as one line each. */
export const throughputFailures = (results: readonly ThroughputResult[]): string[] =>
  results.flatMap((r) =>
    Object.keys(r.unexpected).length > 0 || r.errors > 0 || r.timeouts > 0
      ? [
          `${r.name}: statuses ${JSON.stringify(r.statuses)}, ${r.errors} connection error(s), ${r.timeouts} timeout(s)`,
        ]
      : [],
  );

/** The report's throughput table. */
export const throughputMarkdown = (results: readonly ThroughputResult[]): string[] => [
  `## Throughput of the local platform (autocannon, ${CONNECTIONS} connections, ${SECONDS} s)`,
  '',
  'Requests per second count successes only (every status 200; the watch lifecycle: requests of lifecycles whose open, heartbeat and end all succeeded, on a channel live through the IVS stand-in). A workload with any other status fails the bench.',
  '',
  '| workload | successful req/s | all responses/s | lifecycles/s | p50 ms | p99 ms | statuses | errors |',
  '|---|---|---|---|---|---|---|---|',
  ...results.map(
    (r) =>
      `| ${r.name} | ${fmt(r.requestsPerSecond)} | ${fmt(r.responsesPerSecond)} | ${r.lifecyclesPerSecond === undefined ? '' : fmt(r.lifecyclesPerSecond)} | ${r.p50} | ${r.p99} | ${Object.entries(
        r.statuses,
      )
        .map(([code, n]) => `${code}: ${n}`)
        .join(', ')} | ${r.errors + r.timeouts} |`,
  ),
];
