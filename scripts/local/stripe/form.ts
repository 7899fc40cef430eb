/**
 * Stripe's request encoding: `application/x-www-form-urlencoded` with bracket notation for nested
 * objects and arrays (`line_items[0][price]=price_1`, `expand[]=customer`, `metadata[plan]=gold`),
 * as the official clients write it (qs, indices format). Query strings of GET requests use the
 * same notation. Values stay strings: each endpoint reads the types it expects (see `params.ts`).
 */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type Form = { [key: string]: FormValue };

const isIndex = (segment: string) => segment === '' || /^\d+$/.test(segment);

/** Splits `a[b][0][]` into `['a', 'b', '0', '']`. */
const segmentsOf = (key: string): string[] => {
  const open = key.indexOf('[');
  if (open <= 0) return [key];
  const rest = [...key.slice(open).matchAll(/\[([^\]]*)\]/g)].map((match) => match[1] ?? '');
  return [key.slice(0, open), ...rest];
};

/** Objects whose keys are all indices (`line_items[0]`, `expand[]`) become arrays, in index order. */
const arrays = (value: FormValue): FormValue => {
  if (typeof value === 'string' || Array.isArray(value)) return value;
  const entries = Object.entries(value).map(([key, inner]) => [key, arrays(inner)] as const);
  if (entries.length > 0 && entries.every(([key]) => key.startsWith('\u0000'))) {
    return entries.sort(([a], [b]) => Number(a.slice(1)) - Number(b.slice(1))).map(([, inner]) => inner);
  }
  return Object.fromEntries(entries);
};

/** Parses a form-encoded body or query string into nested objects and arrays. */
export const parseForm = (encoded: string): Form => {
  const root: { [key: string]: FormValue } = {};
  let appended = 0;
  for (const [key, value] of new URLSearchParams(encoded)) {
    const segments = segmentsOf(key);
    let node: { [key: string]: FormValue } = root;
    segments.forEach((segment, i) => {
      // Index segments are keyed with a NUL prefix so `arrays` can tell them from names;
      // `[]` appends (each occurrence its own element).
      const name = isIndex(segment) ? `\u0000${segment === '' ? 1e12 + appended++ : segment}` : segment;
      if (i === segments.length - 1) {
        node[name] = value;
        return;
      }
      const next = node[name];
      if (next === undefined || typeof next === 'string' || Array.isArray(next)) node[name] = {};
      node = node[name] as { [key: string]: FormValue };
    });
  }
  return arrays(root) as Form;
};
