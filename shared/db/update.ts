/**
 * The update builder: an UpdateItem's `UpdateExpression` with its attribute names and values,
 * generated from a typed object, so no entity module writes expression text by hand and no
 * attribute name can collide with a reserved word. Paths with dots (`channel.channel_name`) set a
 * member of a map. Values of `undefined` are left out (a field not given is not changed).
 */
export interface UpdateSpec {
  /** `SET path = value`. */
  set?: Record<string, unknown>;
  /** `SET path = if_not_exists(path, value)`: written only where the attribute is absent. */
  setIfAbsent?: Record<string, unknown>;
  /** `ADD path value` (numbers: counters and `version`). */
  add?: Record<string, number>;
  /** `REMOVE path`. */
  remove?: readonly string[];
}

/** The expression parts an UpdateItem (or a transaction's Update) takes. */
export interface UpdateParts {
  UpdateExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
}

/**
 * Builds the parts of `spec`. Names are `#u<i>`, values `:u<i>`, so a condition written beside
 * it (with names `#c…`/values `:c…` or its own) cannot clash. Throws on an empty update.
 */
export const updateOf = (spec: UpdateSpec): UpdateParts => {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const byName = new Map<string, string>();
  let v = 0;
  const path = (attribute: string) =>
    attribute
      .split('.')
      .map((part) => {
        let alias = byName.get(part);
        if (!alias) {
          alias = `#u${byName.size}`;
          byName.set(part, alias);
          names[alias] = part;
        }
        return alias;
      })
      .join('.');
  const value = (x: unknown) => {
    const alias = `:u${v++}`;
    values[alias] = x;
    return alias;
  };
  const given = <T>(record: Record<string, T> | undefined) =>
    Object.entries(record ?? {}).filter(([, x]) => x !== undefined);
  const sets = [
    ...given(spec.set).map(([a, x]) => `${path(a)} = ${value(x)}`),
    ...given(spec.setIfAbsent).map(([a, x]) => `${path(a)} = if_not_exists(${path(a)}, ${value(x)})`),
  ];
  const adds = given(spec.add).map(([a, x]) => `${path(a)} ${value(x)}`);
  const removes = (spec.remove ?? []).map(path);
  const clauses = [
    sets.length ? `SET ${sets.join(', ')}` : '',
    adds.length ? `ADD ${adds.join(', ')}` : '',
    removes.length ? `REMOVE ${removes.join(', ')}` : '',
  ].filter(Boolean);
  if (clauses.length === 0) throw new RangeError('an update needs at least one attribute');
  return {
    UpdateExpression: clauses.join(' '),
    ExpressionAttributeNames: names,
    ...(v > 0 ? { ExpressionAttributeValues: values } : {}),
  };
};

/**
 * A condition's own names and values merged into an update's (a condition uses `#c…`/`:c…` or
 * literal attribute names; the builder's are `#u…`/`:u…`).
 */
export const withCondition = (
  parts: UpdateParts,
  condition: { expression: string; names?: Record<string, string>; values?: Record<string, unknown> },
) => {
  const values = { ...parts.ExpressionAttributeValues, ...condition.values };
  return {
    ...parts,
    ConditionExpression: condition.expression,
    ExpressionAttributeNames: { ...parts.ExpressionAttributeNames, ...condition.names },
    ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
  };
};
