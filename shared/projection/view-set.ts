import { clock } from '../clock.ts';
import { addRankTotalOperation, listOfItem } from '../catalog/ranked-list.ts';
import { batchPutDelete } from '../db/batch.ts';
import { type PrimaryKey, keyOfString, keyString } from '../db/key.ts';
import { type TransactOperation, transactWriteIf } from '../db/transaction.ts';
import { getViewSet, moveViewSetOperation, viewSetItem as storedViewSet } from './view-set-repository.ts';
import type { Item } from './views.ts';

/**
 * Applies one source item's views idempotently and in version order (docs/projections.md,
 * "Idempotent and ordered").
 * The view set of a source item (shared/projection/view-set-repository.ts) records the version of
 * the source its views were built from and, per view item key, a hash of its content.
 * Applying version v of a source: read the view set; if it was built from a newer version,
 * nothing (a late or repeated record). Otherwise put the view items that are new or changed and
 * delete those gone (BatchWriteItem: each idempotent), then, in ONE transaction, move the view
 * set to v on condition it is still the one read, with the totals of the lists the item entered
 * (+1) or left (-1). A crash between the two steps leaves the view set as it was, so the
 * redelivered record recomputes the same difference and repeats it harmlessly; the totals move
 * exactly once, with the view set.
 */
/** A short stable hash of an item's content (FNV-1a over its JSON with sorted keys). */
export const contentHash = (item: Item): string => {
  const text = JSON.stringify(item, Object.keys(item).sort());
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(36);
};

const hashesOf = (views: readonly Item[]) =>
  Object.fromEntries(views.map((v) => [keyString(v), contentHash(v)]));

/** The view set item recording `views` as built from version `version` of `source`. */
export const viewSetItem = (source: PrimaryKey, version: number, views: readonly Item[]): Item =>
  storedViewSet(source, { source_version: version, views: hashesOf(views) });

const listsOf = (keys: Iterable<string>) => {
  const lists = new Set<string>();
  for (const key of keys) {
    const list = listOfItem(keyOfString(key));
    if (list !== undefined) lists.add(list);
  }
  return lists;
};

export type ApplyOutcome = 'applied' | 'unchanged' | 'stale';

/**
 * Makes the views of `source` (at `version`) exactly `views`. Returns 'stale' when its view set
 * was built from a newer version (nothing written), 'unchanged' when nothing differed.
 */
export const applyViews = async (
  source: PrimaryKey,
  version: number,
  views: readonly Item[],
): Promise<ApplyOutcome> => {
  for (let attempt = 0; ; attempt++) {
    const current = await getViewSet(source);
    const seenVersion = current?.source_version;
    if (seenVersion !== undefined && seenVersion > version) return 'stale';
    const old = current?.views ?? {};
    const next = new Map(views.map((v) => [keyString(v), { item: v, hash: contentHash(v) }]));
    const puts = [...next.values()]
      .filter(({ item, hash }) => old[keyString(item)] !== hash)
      .map((v) => v.item);
    const deletes = Object.keys(old)
      .filter((key) => !next.has(key))
      .map(keyOfString);
    if (puts.length === 0 && deletes.length === 0 && seenVersion === version) return 'unchanged';
    await batchPutDelete(puts, deletes);
    const before = listsOf(Object.keys(old));
    const after = listsOf(next.keys());
    const totals: TransactOperation[] = [
      ...[...after].filter((l) => !before.has(l)).map((l) => [l, 1] as const),
      ...[...before].filter((l) => !after.has(l)).map((l) => [l, -1] as const),
    ].map(([list, delta]) => addRankTotalOperation(list, delta));
    // A source with no views (deleted, suspended) keeps its view set, empty, for two days: a
    // repeated older record then finds it newer (streams keep records for 24 hours).
    const moveSet = moveViewSetOperation(
      source,
      {
        source_version: version,
        views: hashesOf(views),
        ...(views.length === 0 ? { expiresAt: Math.floor(clock.now().getTime() / 1000) + 2 * 86_400 } : {}),
      },
      current,
    );
    if (await transactWriteIf([moveSet, ...totals])) return 'applied';
    // The view set moved meanwhile (the rebuild, or a concurrent projection): start over.
    if (attempt >= 3)
      throw new Error(`view set of ${keyString(source)} keeps changing; giving up (the record is retried)`);
  }
};
