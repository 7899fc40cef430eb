import { randomUUID } from 'node:crypto';
import { logger, recordMetric } from '../observability/index.ts';
import { type AnalyticsRecord, getSink } from './sink.ts';

/**
 * The title dimension (docs/analytics.md, "Dimensions"): what analysts read instead of ids. One
 * row per catalogue entity an event can point at, kept current by the projector
 * (shared/projection/projector.ts calls `exportTitles` with each source change):
 * - `episode` (`ep_…`, an on-demand event's `content_id`): its title, show and creator;
 * - `show` (`sh_…`): its title, creator and category;
 * - `creator` (`cr_…`): the creator's name and category;
 * - `channel` (`ch_…`, a live event's `channel_id`): the channel's name, its creator and category.
 *
 * Rows go through the analytics sink as records of family `catalog` (type `title`), so they land
 * beside the events (S3 `events/family=catalog/dt=…/hour=…/`, locally the same under the
 * analytics folder) with no grant or bucket of their own; the `titles` Glue table reads them.
 * The table is append-only: a change appends a new row and queries read each id's newest
 * (`received_at_ms`). A deleted entity keeps its last row, so past events keep their titles.
 */
export interface TitleRow {
  id: string;
  kind: 'episode' | 'show' | 'creator' | 'channel';
  title: string;
  show_id: string | null;
  creator_id: string | null;
  category: string | null;
}

/** The dimension columns (the Glue table and the DuckDB view are built from this list). */
export const TITLE_COLUMNS = {
  id: 'string',
  kind: 'string',
  title: 'string',
  show_id: 'string',
  creator_id: 'string',
  category: 'string',
  received_at_ms: 'bigint',
} as const;

type Item = Record<string, unknown>;
const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** The dimension rows of one source item (creator, show, episode); none for anything else. */
export const titleRowsOf = (item: Item | undefined): TitleRow[] => {
  if (!item) return [];
  const id = text(item.id);
  if (!id) return [];
  const row = (
    kind: TitleRow['kind'],
    { title, ...fields }: Partial<Omit<TitleRow, 'title'>> & { title: string | null },
  ): TitleRow | undefined =>
    title ? { id, kind, show_id: null, creator_id: null, category: null, ...fields, title } : undefined;
  const rows: Array<TitleRow | undefined> = [];
  switch (item.entity) {
    case 'episode':
      rows.push(
        row('episode', {
          title: text(item.title),
          show_id: text(item.show_id),
          creator_id: text(item.creator_id),
        }),
      );
      break;
    case 'show':
      rows.push(
        row('show', {
          title: text(item.title),
          creator_id: text(item.creator_id),
          category: text(item.category),
        }),
      );
      break;
    case 'creator': {
      const category = text(item.category);
      rows.push(row('creator', { title: text(item.name), category }));
      const channel = item.channel as Item | undefined;
      const channelId = text(channel?.channel_id);
      const channelName = text(channel?.channel_name);
      if (channelId && channelName)
        rows.push({
          id: channelId,
          kind: 'channel',
          title: channelName,
          show_id: null,
          creator_id: id,
          category,
        });
      break;
    }
    default:
  }
  return rows.filter((r): r is TitleRow => r !== undefined);
};

/** Every title row of a catalogue (the backfill: `npm run analytics -- export-titles`). */
export const catalogTitleRows = (catalog: {
  creators: readonly object[];
  shows: readonly object[];
  episodes: readonly object[];
}): TitleRow[] => [
  ...catalog.creators.flatMap((c) => titleRowsOf({ ...c, entity: 'creator' })),
  ...catalog.shows.flatMap((s) => titleRowsOf({ ...s, entity: 'show' })),
  ...catalog.episodes.flatMap((e) => titleRowsOf({ ...e, entity: 'episode' })),
];

/** The rows of `after` that differ from those of `before` (a counter update changes none). */
export const changedTitleRows = (before: Item | undefined, after: Item | undefined): TitleRow[] => {
  const previous = new Set(titleRowsOf(before).map((r) => JSON.stringify(r)));
  return titleRowsOf(after).filter((r) => !previous.has(JSON.stringify(r)));
};

/** A dimension row as the sink's record (family `catalog`, partitioned by its receive time). */
export const titleRecord = (row: TitleRow, now: Date): AnalyticsRecord => ({
  event_id: randomUUID(),
  family: 'catalog',
  type: 'title',
  ...row,
  received_at: now.toISOString(),
  received_at_ms: now.getTime(),
  client_ts_ms: now.getTime(),
});

/**
 * The projector's hook: appends the changed dimension rows of one source change. A side effect
 * like the playhead (docs/analytics.md): a failure is logged (error name only) and counted in
 * `title_export_failures`, never fails the projection; the next change of the entity writes
 * the row again (locally, `npm run analytics -- export-titles` writes the demo catalogue's).
 */
export const exportTitles = async (before: Item | undefined, after: Item | undefined, now: Date) => {
  const rows = changedTitleRows(before, after);
  if (rows.length === 0) return;
  try {
    await (await getSink()).put(rows.map((row) => titleRecord(row, now)));
  } catch (error) {
    logger.warn('Title dimension not exported', { error: error instanceof Error ? error.name : 'unknown' });
    recordMetric('title_export_failures');
  }
};
