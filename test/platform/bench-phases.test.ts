import { describe, expect, it } from 'vitest';
import { phaseBudgetOf, phaseProblems, phasesOf } from '../../bench/critical-path.ts';

/** Issue 41: the bench counts the DynamoDB round trips a request waits for one after another. */
describe('dependent DynamoDB phases (bench/phases.ts)', () => {
  const call = (start: number, end: number) => ({ start, end });

  it('counts overlapping calls as one phase and a call started after another ended as the next', () => {
    expect(phasesOf([])).toBe(0);
    expect(phasesOf([call(0, 5), call(1, 6), call(2, 4)])).toBe(1);
    expect(phasesOf([call(0, 5), call(5, 9)])).toBe(2);
    // The longest chain: 0-5 -> 6-8 -> 9-12, beside a call that overlaps two of them.
    expect(phasesOf([call(9, 12), call(0, 5), call(6, 8), call(1, 11)])).toBe(3);
  });

  it('reads an endpoint budget, else the catalogue reads one', () => {
    const budget = { catalogueReads: 2, endpoints: { 'watch open': 3 } };
    expect(phaseBudgetOf(budget, 'watch open')).toBe(3);
    expect(phaseBudgetOf(budget, 'home')).toBe(2);
  });

  it('names every endpoint over its budget, not answered 2xx, or budgeted but not measured', () => {
    const budget = { catalogueReads: 2, endpoints: { 'watch open': 3, heartbeat: 1 } };
    const row = (name: string, phases: number, status = 200) => ({ name, route: 'GET /x', status, phases });
    expect(phaseProblems([row('home', 2), row('watch open', 3), row('heartbeat', 1)], budget)).toEqual([]);
    expect(phaseProblems([row('list shows', 3), row('watch open', 4, 404)], budget)).toEqual([
      'list shows: 3 dependent DynamoDB phases > 2',
      'watch open: answered 404',
      'watch open: 4 dependent DynamoDB phases > 3',
      'heartbeat: budgeted in bench/budget.json but not measured',
    ]);
  });
});
