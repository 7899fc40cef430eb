/**
 * `fn` over every item, at most `limit` at once (each of `limit` workers takes the next item when
 * its last is done); the results in the items' order. The first failure rejects, as Promise.all's.
 */
export const mapInFlight = async <T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> => {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
};
