import autocannon from 'autocannon';
import { startLocalApi } from '../scripts/local/server.ts';

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

/**
 * Requests per second and p99 of the local platform (real HTTP server, real handlers, DynamoDB
 * Local) under autocannon, bounded to a few seconds per workload, loopback only.
 */
export const measureThroughput = async (token: string) => {
  const { server, url } = await startLocalApi(0);
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
