import type { CreatorRecord, EpisodeRecord, ShowRecord } from '../catalog/model.ts';
import { listOfItem, rankTotalKey } from '../catalog/ranked-list.ts';
import { batchPutDelete } from '../db/batch.ts';
import { keyString, primaryKey } from '../db/key.ts';
import { newDynamoClient } from '../db/client.ts';
import { DocumentClient } from '../db/document.ts';
import { ScanCommand } from '../db/scan.ts';
import { recordOf } from '../db/record.ts';
import { tableName } from '../db/table.ts';
import { guideKeysToRepair, repairGuideKeys } from '../epg/program-repository.ts';
import { catalogViewItems, type Versioned } from './bulk.ts';
import { contentHash } from './view-set.ts';
import { isViewSetItem } from './view-set-repository.ts';
import type { Item } from './views.ts';
import { isSearchEntryItem } from '../search/search-entry-repository.ts';
import { repairShowProfile, showProfileNeedsRepair } from '../shows/show-repository.ts';
import {
  differingMonths,
  type Earning,
  type EarningMonth,
  repairEarningMonths,
} from '../payments/payout-repository.ts';

/**
 * The rebuild (`npm run rebuild-views`; on AWS the operator-invoked rebuild function): recomputes
 * every view from the source items with the same view functions as the projector and the seed
 * loader, compares it with the table, and (unless `dryRun`) puts what is missing or different and
 * deletes what should not be there. For repair (after records went to the on-failure queue) and
 * backfills (a new view). It reads the whole table (a parallel Scan: an operator job, never a
 * request path) and holds it in memory: ~200 MB at 10x the demo catalogue.
 * Differences that are not wrong: a list total of 0 equals no total; a view set compares by its
 * views (the projector moves its `source_version` only when a view changes); an empty view set
 * (a deleted source's guard, shared/projection/view-set.ts) is kept.
 */
const isView = (item: Item) =>
  listOfItem(item) !== undefined || isViewSetItem(item) || isSearchEntryItem(item);

const SEGMENTS = 4;

const scanTable = async (client: DocumentClient): Promise<Item[]> => {
  const segments = await Promise.all(
    Array.from({ length: SEGMENTS }, async (_, segment) => {
      const items: Item[] = [];
      let start: Item | undefined;
      do {
        const page = await client.send(
          new ScanCommand({
            TableName: tableName(),
            Segment: segment,
            TotalSegments: SEGMENTS,
            ExclusiveStartKey: start,
          }),
        );
        items.push(...(page.Items ?? []));
        start = page.LastEvaluatedKey;
      } while (start);
      return items;
    }),
  );
  return segments.flat();
};

/** What an item is compared by. */
const comparable = (item: Item): string | undefined => {
  const list = listOfItem(item);
  if (list !== undefined && keyString(item) === keyString(rankTotalKey(list)) && Number(item.total) === 0)
    return undefined;
  if (isViewSetItem(item)) {
    const views = (item.views ?? {}) as Record<string, string>;
    return Object.keys(views).length === 0 ? undefined : contentHash(views);
  }
  return contentHash(item);
};

export interface RebuildReport {
  sources: number;
  views: number;
  /** View items written because they were missing or differed. */
  put: number;
  /** View items deleted because no source calls for them. */
  deleted: number;
  /**
   * Programs whose guide index keys (GSI2, shared/epg/program-repository.ts) were missing or wrong,
   * set (a backfill for programs written before the guide index).
   */
  guideKeys: number;
  /**
   * Show profiles whose GSI1 sort key or episode tally (shared/shows/show-repository.ts) was
   * missing or differed from their episodes, set (a backfill for profiles written before tallies).
   */
  showProfiles: number;
  /**
   * Creators' monthly earnings totals (`EARNINGS_MONTH#`, shared/payments/payout-repository.ts)
   * that were missing or differed from their earnings, set (a backfill for earnings recorded
   * before the totals).
   */
  earningMonths: number;
  /** Keys of the differing items (the first 20), for the report. */
  examples: string[];
  dryRun: boolean;
}

/** Recomputes every view from the source items; with `dryRun`, only reports the differences. */
export const rebuildViews = async (options: { dryRun?: boolean } = {}): Promise<RebuildReport> => {
  // A client of its own: the test harness forbids Scan on the shared (request path) client.
  const client = new DocumentClient(newDynamoClient());
  const items = await scanTable(client);
  const of = <T>(entity: string) =>
    items.filter((item) => item.entity === entity).map((item) => recordOf<Versioned<T>>(item));
  const creators = of<CreatorRecord>('creator');
  const shows = of<ShowRecord>('show');
  const episodes = of<EpisodeRecord>('episode');
  const desired = catalogViewItems({ creators, shows, episodes });
  const existing = new Map(items.filter(isView).map((item) => [keyString(item), item]));
  const wanted = new Map(desired.map((item) => [keyString(item), item]));
  const puts = desired.filter((item) => {
    const current = existing.get(keyString(item));
    return current === undefined || comparable(current) !== comparable(item);
  });
  const deletes = [...existing.values()]
    .filter((item) => !wanted.has(keyString(item)) && comparable(item) !== undefined)
    .map(primaryKey);
  if (!options.dryRun) await batchPutDelete(puts, deletes);
  const guideKeys = await repairProgramGuideKeys(items, creators, options.dryRun ?? false);
  const showProfiles = await repairShowProfiles(items, episodes, options.dryRun ?? false);
  const earningMonths = await repairEarningTotals(items, options.dryRun ?? false);
  return {
    sources: creators.length + shows.length + episodes.length,
    views: desired.length,
    put: puts.length,
    deleted: deletes.length,
    guideKeys,
    showProfiles,
    earningMonths,
    examples: [...puts, ...deletes].slice(0, 20).map((item) => keyString(item)),
    dryRun: options.dryRun ?? false,
  };
};

/**
 * Sets the guide index keys of every program whose keys differ from what its item builder gives
 * (shared/epg/program-repository.ts `repairGuideKeys`: on condition its version is still the one
 * scanned). Returns how many differed.
 */
const repairProgramGuideKeys = async (
  items: Item[],
  creators: readonly CreatorRecord[],
  dryRun: boolean,
): Promise<number> => {
  const numbers = new Map(creators.map((c) => [c.channel.channel_id, c.channel.channel_number]));
  let differing = 0;
  for (const item of items) {
    if (item.entity !== 'program') continue;
    const number = numbers.get(String(item.channel_id));
    if (number === undefined) continue;
    const keys = guideKeysToRepair(item, number);
    if (!keys) continue;
    differing++;
    if (!dryRun) await repairGuideKeys(item, keys);
  }
  return differing;
};

/**
 * Sets the GSI1 sort key and episode tally of every show profile whose item differs from what its
 * episodes give (`repairShowProfile`: read again consistently, on condition its version is still
 * the one read). Returns how many differed.
 */
const repairShowProfiles = async (
  items: Item[],
  episodes: readonly EpisodeRecord[],
  dryRun: boolean,
): Promise<number> => {
  const byShow = new Map<string, EpisodeRecord[]>();
  for (const e of episodes) byShow.set(e.show_id, [...(byShow.get(e.show_id) ?? []), e]);
  let differing = 0;
  for (const item of items) {
    if (item.entity !== 'show' || !showProfileNeedsRepair(item, byShow.get(String(item.id)) ?? [])) continue;
    differing++;
    if (!dryRun) await repairShowProfile(String(item.id));
  }
  return differing;
};

/**
 * Sets the monthly earnings totals of every creator whose totals differ from its earnings
 * (`repairEarningMonths`: read again consistently, each month on condition of its version).
 * Returns how many months differed in the scan.
 */
const repairEarningTotals = async (items: Item[], dryRun: boolean): Promise<number> => {
  const byCreator = new Map<string, { earnings: Earning[]; months: EarningMonth[] }>();
  const of = (item: Item) => {
    const id = String(item.creator_id);
    const entry = byCreator.get(id) ?? { earnings: [], months: [] };
    byCreator.set(id, entry);
    return entry;
  };
  for (const item of items) {
    if (item.entity === 'earning') of(item).earnings.push(recordOf<Earning>(item));
    else if (item.entity === 'earning_month') of(item).months.push(recordOf<EarningMonth>(item));
  }
  let differing = 0;
  for (const [creatorId, { earnings, months }] of byCreator) {
    const count = differingMonths(earnings, months).length;
    if (count === 0) continue;
    differing += count;
    if (!dryRun) await repairEarningMonths(creatorId);
  }
  return differing;
};
