/**
 * The pure part of bench/phases.ts, in a module of its own: bench/warm.ts and bench/check.ts use
 * it, and bench/phases.ts (a script with top-level await) cannot be imported back by a module it
 * imports while it runs (the import would wait for it: a deadlock).
 */

/**
 * Dependent DynamoDB phases on a request's critical path: the longest chain of calls each of which
 * started only after the one before it in the chain had ended (calls that overlap are one phase).
 * On AWS each phase is a network round trip the request waits for, so their number, not the
 * number of calls, sets the latency floor (issue 41).
 */
export const phasesOf = (calls: readonly { start: number; end: number }[]): number =>
  Math.max(0, ...depthsOf(calls));

/**
 * Each call's phase (1 = started before any other call ended), in the calls' start order: the
 * calls of one phase overlap or start together, each after a call of the phase before ended.
 */
export const depthsOf = (calls: readonly { start: number; end: number }[]): number[] => {
  const ordered = [...calls].sort((a, b) => a.start - b.start);
  const depth: number[] = [];
  ordered.forEach((call, i) => {
    let before = 0;
    for (let j = 0; j < i; j++) if (ordered[j]!.end <= call.start) before = Math.max(before, depth[j]!);
    depth.push(before + 1);
  });
  return depth;
};

/** The phase budget of an endpoint row (bench/budget.json `dbPhases`). */
export const phaseBudgetOf = (budget: PhaseBudget, name: string): number =>
  budget.endpoints?.[name] ?? budget.catalogueReads;

/** bench/budget.json `dbPhases`: the catalogue reads' budget and each other endpoint's by name. */
export interface PhaseBudget {
  catalogueReads: number;
  endpoints?: Record<string, number>;
}

/** One endpoint's measured phases, as bench/phases.ts records them. */
export interface MeasuredPhases {
  name: string;
  route: string;
  status: number;
  phases: number;
  /** The response's body when it was not 2xx. */
  error?: string;
}

/**
 * What breaks the phase budget, one line each: an endpoint over its budget, one not answered 2xx
 * (its phases would say nothing), an endpoint budgeted by name but not measured. `npm run
 * bench:check` on the full report and test/platform/phases.int.test.ts (so `npm test`) both judge
 * with it.
 */
export const phaseProblems = (rows: readonly MeasuredPhases[], budget: PhaseBudget): string[] => [
  ...rows.flatMap((r) => {
    const limit = phaseBudgetOf(budget, r.name);
    return [
      ...(r.status < 200 || r.status >= 300
        ? [`${r.name}: answered ${r.status}${r.error ? `: ${r.error}` : ''}`]
        : []),
      ...(r.phases > limit ? [`${r.name}: ${r.phases} dependent DynamoDB phases > ${limit}`] : []),
    ];
  }),
  ...Object.keys(budget.endpoints ?? {})
    .filter((name) => !rows.some((r) => r.name === name))
    .map((name) => `${name}: budgeted in bench/budget.json but not measured`),
];

/** The phase table (markdown): endpoint, route, status, measured phases and budget. */
export const phaseTable = (
  rows: readonly (MeasuredPhases & { calls?: number; commands?: readonly string[] })[],
  budget: PhaseBudget | undefined,
): string[] => [
  '| endpoint | route | status | phases | budget | calls | commands, in start order |',
  '|---|---|---|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| ${r.name} | ${r.route} | ${r.status} | ${r.phases} | ${budget ? phaseBudgetOf(budget, r.name) : 'n/a'} | ${r.calls ?? ''} | ${(r.commands ?? []).join(', ')} |`,
  ),
];
