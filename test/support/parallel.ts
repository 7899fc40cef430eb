/**
 * Runs `work` on every item, at most `width` at a time, and resolves with the results in the
 * items' order. The first rejection rejects the whole (no new item starts after it); the ones
 * already running finish first, so nothing a test started outlives it.
 * For tests whose cases are independent of each other (docs/conventions.md "Test time").
 */
export const inParallel = async <T, R>(
  items: readonly T[],
  width: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> => {
  const results: R[] = new Array(items.length);
  let next = 0;
  let failed = false;
  const errors: unknown[] = [];
  const lane = async () => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await work(items[index] as T, index);
      } catch (error) {
        failed = true;
        errors.push(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(width, items.length)) }, lane));
  if (errors.length > 0) throw errors[0];
  return results;
};
