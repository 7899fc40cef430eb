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
export const phasesOf = (calls: readonly { start: number; end: number }[]): number => {
  const ordered = [...calls].sort((a, b) => a.start - b.start);
  const depth: number[] = [];
  ordered.forEach((call, i) => {
    let before = 0;
    for (let j = 0; j < i; j++) if (ordered[j]!.end <= call.start) before = Math.max(before, depth[j]!);
    depth.push(before + 1);
  });
  return Math.max(0, ...depth);
};

/** The phase budget of an endpoint row (bench/budget.json `dbPhases`). */
export const phaseBudgetOf = (
  budget: { catalogueReads: number; endpoints?: Record<string, number> },
  name: string,
): number => budget.endpoints?.[name] ?? budget.catalogueReads;
