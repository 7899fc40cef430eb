import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { startDynamoDbLocal } from '../scripts/local/dynamodb-local.ts';
import { loadWithoutStream } from './load.ts';
import { SAMPLE_REQUESTS } from './requests.ts';

const fmt = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

/**
 * The timing-heavy part: DynamoDB Local with the demo catalogue at scale 1 and at scale 10 (two
 * tables, same run), warm in-process latency next to the bare DynamoDB calls, consumed capacity,
 * growth (the throughput of the local platform is bench/phases.ts's part, with live channels).
 */
export const runServerBench = async (options: {
  iterations: number;
  only?: string;
  /**
   * Leave DynamoDB Local up with both tables and answer them (`loaded`, by scale) and `stop`: the
   * projection part (bench/projection.ts) then runs on these tables instead of loading the same
   * catalogues again. The caller stops it.
   */
  keep?: boolean;
}) => {
  const samples = SAMPLE_REQUESTS.filter((s) => !options.only || s.name.includes(options.only));
  const local = await startDynamoDbLocal();
  let kept = false;
  (await import('../scripts/local/local-table.ts')).useDynamoDbLocal(local.endpoint);
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  try {
    // Handlers run in process here (outside any function context): the local AWS stand-ins and
    // the deployment's settings in the environment, as the tests have them.
    const { installLocalAws, useDeploymentSettings } = await import('../scripts/local/aws.ts');
    installLocalAws();
    useDeploymentSettings();
    const { createTable } = await import('../shared/db/create-table.ts');
    const { generateCatalog } = await import('../scripts/seed/generate.ts');
    const { loadCatalog } = await import('../scripts/seed/load.ts');
    const { measureWarm, ROUNDS } = await import('./warm.ts');
    const { issueAccessToken } = await import('../shared/identity/access-token.ts');
    const admin = new DynamoDBClient({
      endpoint: local.endpoint,
      region: 'local',
      credentials: { accessKeyId: 'l', secretAccessKey: 'l' },
    });
    const now = new Date();
    const loaded: Record<number, { endpoint: string; table: string; items: number }> = {};
    const seeds: Array<[string, number]> = [
      ['bench-s1', 1],
      ['bench-s10', 10],
    ];
    for (const [table, scale] of seeds) {
      process.env.TABLE_NAME = table;
      await createTable(admin, table);
      const catalog = generateCatalog({ now, seed: 42, scale });
      if (options.only) {
        // A quick check of some samples (`--only search`): the creator and show documents and
        // their search items only. The whole 10x catalogue's views (~190,000 items) take most of
        // an hour to load into DynamoDB Local on a busy machine.
        const { batchPut } = await import('../shared/db/batch.ts');
        const { creatorItem } = await import('../shared/creators/creator-repository.ts');
        const { creatorSearchItems } = await import('../shared/creators/creator-search.ts');
        const { EMPTY_TALLY, showItem } = await import('../shared/shows/show-repository.ts');
        const { showSearchItems } = await import('../shared/shows/show-search.ts');
        const creatorById = new Map(catalog.creators.map((c) => [c.id, c]));
        await loadWithoutStream(admin, table, () =>
          batchPut([
            ...catalog.creators.flatMap((c) => [creatorItem(c), ...creatorSearchItems(c)]),
            ...catalog.shows.flatMap((s) => [
              // No episodes are loaded here: the tally of a show without any.
              showItem({ ...s, episode_tally: EMPTY_TALLY }),
              ...showSearchItems(s, creatorById.get(s.creator_id)),
            ]),
          ]),
        );
        continue;
      }
      // The 10x table measures catalogue growth; its EPG (10x programs) is not needed for that.
      const t = performance.now();
      const { items } = await loadWithoutStream(admin, table, () =>
        loadCatalog(scale === 1 ? catalog : { ...catalog, programs: [] }, now),
      );
      console.error(
        `[bench] ${scale}x catalogue: ${items} items loaded in ${((performance.now() - t) / 1000).toFixed(1)} s`,
      );
      loaded[scale] = { endpoint: local.endpoint, table, items };
    }
    const { token } = await issueAccessToken('acc_demo_viewer', now);
    // A settling pass, not reported: every handler's code is compiled hot and DynamoDB Local has
    // finished with the loads (its JVM collects for a while after ~420,000 writes). Measured
    // without it, the first samples of the 1x pass ran up to 2.5x slower than the same requests
    // on the 10x table a minute later (docs/performance.md, "Warm requests").
    for (const table of ['bench-s10', 'bench-s1']) {
      process.env.TABLE_NAME = table;
      await measureWarm(samples, { iterations: 10, token });
    }
    process.env.TABLE_NAME = 'bench-s1';
    const warm = await measureWarm(samples, { iterations: options.iterations, token });
    process.env.TABLE_NAME = 'bench-s10';
    const big = await measureWarm(
      samples.filter((s) => s.catalogue),
      { iterations: options.iterations, token },
    );
    process.env.TABLE_NAME = 'bench-s1';
    const growth = big.map((b) => {
      const small = warm.find((w) => w.name === b.name)!;
      return {
        name: b.name,
        latencyRatio: b.p50 / small.p50,
        capacityRatio: small.capacity > 0 ? b.capacity / small.capacity : 1,
        small,
        big: b,
      };
    });

    const markdown = ['', '## Warm requests (in-process handler vs its bare DynamoDB calls, scale 1)', ''];
    markdown.push(
      `${options.iterations} iterations each after 5 warm-up requests, spread over ${ROUNDS} passes through all the samples.`,
      '',
    );
    markdown.push(
      '| endpoint | status | p50 ms | p99 ms | bare p50 ms | bare p99 ms | ratio p50 | calls | capacity units | commands |',
      '|---|---|---|---|---|---|---|---|---|---|',
    );
    for (const w of warm) {
      markdown.push(
        `| ${w.name} | ${w.status} | ${fmt(w.p50)} | ${fmt(w.p99)} | ${fmt(w.bareP50)} | ${fmt(w.bareP99)} | ${fmt(w.ratio)} | ${w.calls} | ${fmt(w.capacity, 1)} | ${w.commands.join(', ')} |`,
      );
    }
    markdown.push(
      '',
      '## Growth: catalogue endpoints at 10x catalogue',
      '',
      '| endpoint | p50 1x ms | p50 10x ms | latency ratio | capacity 1x | capacity 10x | capacity ratio |',
      '|---|---|---|---|---|---|---|',
    );
    for (const g of growth) {
      markdown.push(
        `| ${g.name} | ${fmt(g.small.p50)} | ${fmt(g.big.p50)} | ${fmt(g.latencyRatio)} | ${fmt(g.small.capacity, 1)} | ${fmt(g.big.capacity, 1)} | ${fmt(g.capacityRatio)} |`,
      );
    }
    kept = options.keep === true;
    return {
      report: { warm, growth },
      markdown,
      loaded,
      stop: () => local.stop(),
    };
  } finally {
    if (!kept) await local.stop();
  }
};
