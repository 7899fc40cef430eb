import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { routeKey, type RouteRow } from '../../shared/http/route.ts';
import { allows, type Deployment, policyOf } from '../../shared/platform/access.ts';

/**
 * Least privilege, checked both ways against what the integration run recorded
 * (scripts/local/aws.ts appends each distinct call of each function to IAM_USAGE_DIR):
 * - `beyond`: a call a function made that its row does not grant (the guard already refused it);
 * - `unused`: a grant (action on resource) that no request of the run needed.
 */
export interface PrivilegeReport {
  beyond: string[];
  unused: string[];
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

export const comparePrivileges = (
  rows: readonly RouteRow[],
  deployment: Deployment,
  used: Map<string, Set<string>>,
): PrivilegeReport => {
  const report: PrivilegeReport = { beyond: [], unused: [] };
  for (const row of rows) {
    const key = routeKey(row);
    const policy = policyOf(row, deployment);
    const calls = used.get(key) ?? new Set<string>();
    for (const call of calls) {
      const [action, resource] = call.split(' ') as [string, string];
      if (!allows(policy, action, resource)) report.beyond.push(`${key}: ${call}`);
    }
    for (const statement of policy) {
      for (const action of statement.actions) {
        for (const resource of statement.resources) {
          // A pattern grant (IVS resources made at run time) is used when any call fell under it.
          const used = [...calls].some((call) => {
            const [calledAction, calledResource] = call.split(' ') as [string, string];
            return (
              calledAction === action &&
              allows([{ actions: [action], resources: [resource] }], action, calledResource)
            );
          });
          if (!used) report.unused.push(`${key}: ${action} ${resource}`);
        }
      }
    }
  }
  return report;
};
