import { beforeAll, describe, expect, it } from 'vitest';
import { phaseProblems, phaseTable } from '../../bench/critical-path.ts';
import { measurePhases, phaseBudget } from '../../bench/phases.ts';
import { SAMPLE_REQUESTS } from '../../bench/requests.ts';
import { issueAccessToken } from '../../shared/identity/access-token.ts';
import { generateCatalog } from '../../scripts/seed/generate.ts';
import { type TestApi, testApi } from '../support/api.ts';

/**
 * Issue 41: every budgeted endpoint within its dependent DynamoDB phases (bench/budget.json
 * `dbPhases`), measured by the bench's own code (bench/phases.ts `measurePhases`: the catalogue
 * samples warm, the watch flow on a channel live through the IVS stand-in, each request as its
 * function) on the platform the integration tests already run. A count, not a timing: it holds on
 * a loaded machine, and `npm test` checks it without starting a platform of its own.
 */
let api: TestApi;
let live: { id: string; channel: string };

beforeAll(async () => {
  api = await testApi();
  const creator = generateCatalog({ now: api.seededAt, seed: 42 }).creators.find(
    (c) => c.live && !c.channel.requires_subscription,
  )!;
  live = { id: creator.id, channel: creator.channel.channel_id };
});

describe('dependent DynamoDB phases per endpoint', () => {
  it('every endpoint is within its phase budget in bench/budget.json', async () => {
    const { token } = await issueAccessToken('acc_demo_viewer', new Date());
    const rows = await measurePhases({ samples: SAMPLE_REQUESTS, token, live });
    const budget = phaseBudget();
    const problems = phaseProblems(rows, budget);
    expect(problems, `\n${problems.join('\n')}\n\n${phaseTable(rows, budget).join('\n')}\n`).toEqual([]);
    // The measure itself: the watch open's three phases are the reads, the claim and the count.
    expect(rows.find((r) => r.name === 'watch open')).toMatchObject({ status: 200, phases: 3 });
  });
});
