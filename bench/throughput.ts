import autocannon from 'autocannon';
import { startLocalApi } from '../scripts/local/server.ts';
import { issueAccessToken } from '../shared/identity/access-token.ts';
import { generateCatalog } from '../shared/seed/generate.ts';

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

/**
 * Requests per second and p99 of the local platform (real HTTP server, real handlers, DynamoDB
 * Local) under autocannon, bounded to a few seconds per workload, loopback only.
 */
export const measureThroughput = async (token: string) => {
  const { server, url } = await startLocalApi(0);
  // Watch lifecycle: each connection is its own viewer (the stream limit is per account) and
  // loops open -> heartbeat -> end on an open live channel of the seeded catalogue.
  const live = generateCatalog({ now: new Date(), seed: 42 }).creators.find(
    (c) => c.live && !c.channel.requires_subscription,
  )!;
  const viewers = await Promise.all(
    Array.from({ length: 10 }, async (_, i) => (await issueAccessToken(`acc_bench_${i}`, new Date())).token),
  );
  let nextViewer = 0;
  type Context = { token?: string; sid?: string };
  const base = `/creators/${live.id}/channel/live`;
  const as = (context: Context) => {
    context.token ??= viewers[nextViewer++ % viewers.length];
    return { authorization: `Bearer ${context.token}`, 'content-type': 'application/json' };
  };
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
            body: JSON.stringify({ channel_id: live.channel.channel_id, device_type: 'web' }),
          }),
          onResponse: (_status, body, context: Context) => {
            context.sid = JSON.parse(body).data?.session?.session_id;
          },
        },
        {
          method: 'GET',
          setupRequest: (req, context: Context) => ({
            ...req,
            path: `${base}/heartbeat?session_id=${context.sid}`,
            headers: as(context),
          }),
        },
        {
          method: 'DELETE',
          setupRequest: (req, context: Context) => ({
            ...req,
            path: `${base}/watch?session_id=${context.sid}`,
            headers: as(context),
          }),
        },
      ],
    },
  ];
  const results = [];
  try {
    for (const workload of workloads) {
      const result = await autocannon({ url, connections: 10, duration: 8, requests: workload.requests });
      results.push({
        name: workload.name,
        requestsPerSecond: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        non2xx: result.non2xx,
        errors: result.errors,
      });
    }
  } finally {
    server.close();
    server.closeAllConnections();
  }
  const markdown = [
    '## Throughput of the local platform (autocannon, 10 connections, 8 s)',
    '',
    '| workload | req/s | p50 ms | p99 ms | non-2xx | errors |',
    '|---|---|---|---|---|---|',
  ];
  for (const r of results)
    markdown.push(
      `| ${r.name} | ${fmt(r.requestsPerSecond)} | ${r.p50} | ${r.p99} | ${r.non2xx} | ${r.errors} |`,
    );
  return { results, markdown };
};
