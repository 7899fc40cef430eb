import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { allows } from '../../scripts/local/iam.ts';
import type { Statement } from '../../shared/platform/access.ts';

/**
 * Least privilege, checked both ways for every function of the stack against what the
 * integration run recorded (scripts/local/aws.ts appends each distinct request of each function
 * to IAM_USAGE_DIR: the action and each resource IAM authorizes it on, scripts/local/iam.ts):
 * - `beyond`: a request a function made that its statements do not allow, as IAM evaluates them
 *   (the guard already refused it; this catches a refusal the code swallowed);
 * - `unused`: a grant (action on resource) that no request of the run was allowed by;
 * - `notExercised`: the grants of a function the run cannot invoke, with the reason it gives
 *   (listed, never silently skipped).
 */
export interface PrivilegeReport {
  /** Every function checked: its kind, how many distinct requests it made, or why it was not run. */
  functions: string[];
  beyond: string[];
  unused: string[];
  notExercised: string[];
}

/** One function of the stack as the report checks it. */
export interface CheckedFunction {
  /** What its calls are recorded under (`routeKey` of its row; the custom resource type). */
  key: string;
  kind: 'route' | 'worker' | 'schedule' | 'custom resource';
  /** The statements the stack gives its role (beyond logs and tracing), from the stack's derivation. */
  statements: readonly Statement[];
  /** Why the integration run cannot exercise it: its grants are listed, not compared. */
  notExercised?: string;
}

export const readUsage = (dir: string): Map<string, Set<string>> => {
  const used = new Map<string, Set<string>>();
  const files = (() => {
    try {
      return readdirSync(dir).filter((name) => name.endsWith('.ndjson'));
    } catch {
      return [];
    }
  })();
  for (const file of files) {
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n').filter(Boolean)) {
      const { route, action, resource } = JSON.parse(line) as Record<string, string>;
      const set = used.get(route!) ?? new Set<string>();
      used.set(route!, set);
      set.add(`${action} ${resource}`);
    }
  }
  return used;
};

const split = (call: string) => call.split(' ') as [string, string];

export const comparePrivileges = async (
  functions: readonly CheckedFunction[],
  used: Map<string, Set<string>>,
): Promise<PrivilegeReport> => {
  const report: PrivilegeReport = { functions: [], beyond: [], unused: [], notExercised: [] };
  for (const fn of functions) {
    const calls = [...(used.get(fn.key) ?? [])];
    const grants = fn.statements.flatMap((s) =>
      s.actions.flatMap((action) => s.resources.map((resource) => ({ action, resource }))),
    );
    if (fn.notExercised && calls.length === 0) {
      report.functions.push(
        `${fn.kind} ${fn.key}: not exercised by the integration run (${fn.notExercised})`,
      );
      for (const { action, resource } of grants)
        report.notExercised.push(`${fn.kind} ${fn.key}: ${action} ${resource}`);
      continue;
    }
    report.functions.push(`${fn.kind} ${fn.key}: ${calls.length} distinct requests, ${grants.length} grants`);
    for (const call of calls) {
      const [action, resource] = split(call);
      if (!(await allows(fn.statements, action, resource)))
        report.beyond.push(`${fn.kind} ${fn.key}: ${call}`);
    }
    for (const grant of grants) {
      // A grant is used when IAM would allow some recorded request by it alone (a pattern grant,
      // IVS resources made at run time, by any request under it).
      const alone = [{ actions: [grant.action], resources: [grant.resource] }];
      let usedByOne = false;
      for (const call of calls) {
        const [action, resource] = split(call);
        if (action === grant.action && (await allows(alone, action, resource))) {
          usedByOne = true;
          break;
        }
      }
      if (!usedByOne) report.unused.push(`${fn.kind} ${fn.key}: ${grant.action} ${grant.resource}`);
    }
  }
  return report;
};
