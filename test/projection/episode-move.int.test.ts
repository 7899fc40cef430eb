import { randomUUID } from 'node:crypto';
import type { DynamoDBRecord } from 'aws-lambda';
import { GetCommand } from '../../shared/db/document.ts';
import { marshall } from '@aws-sdk/util-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CategoryId } from '../../shared/catalog/model.ts';
import { db } from '../../shared/db/client.ts';
import { keyString, primaryKey } from '../../shared/db/key.ts';
import { tableName } from '../../shared/db/table.ts';
import { projectRecord } from '../../shared/projection/projector.ts';
import { episodeViews } from '../../shared/projection/views.ts';
import { generateCatalog } from '../../scripts/seed/generate.ts';
import { episodeItemKey } from '../../shared/shows/show-repository.ts';
import { type TestApi, testApi } from '../support/api.ts';

/**
 * Moving an episode (a new season or number) deletes its item and puts one at the new position in
 * one transaction; the two stream records may reach the projector in either order. Found by the
 * projection invariant test: with view sets keyed by position, the deletion projected after the
 * put deleted the moved episode's list entries. Here the projector is handed both orders directly,
 * at the tightest versions the studio writes (the new item one above the old), for an episode that
 * exists only in these records (the table's own stream never sees it).
 */

let api: TestApi;
beforeAll(async () => {
  api = await testApi();
});

const record = (eventName: 'INSERT' | 'REMOVE', image: Record<string, unknown>) =>
  ({
    eventName,
    dynamodb: eventName === 'INSERT' ? { NewImage: marshall(image) } : { OldImage: marshall(image) },
  }) as unknown as DynamoDBRecord;

const stored = async (key: Record<string, unknown>) =>
  (await db.send(new GetCommand({ TableName: tableName(), Key: primaryKey(key), ConsistentRead: true })))
    .Item;

describe('an episode moved to a new position keeps its views', () => {
  const template = () => {
    const catalog = generateCatalog({ now: api.seededAt, seed: 42 });
    const episode = catalog.episodes[0]!;
    const category = catalog.shows.find((s) => s.id === episode.show_id)!.category as CategoryId;
    const id = `ep_move_${randomUUID().slice(0, 8)}`;
    const at = (season: number, version: number) => ({
      ...episode,
      id,
      season,
      views: 0,
      ...episodeItemKey(episode.show_id, season, episode.episode_number),
      entity: 'episode',
      version,
    });
    return { category, old: at(1, 3), moved: at(2, 4) };
  };

  for (const order of ['put first', 'deletion first'] as const)
    it(`whichever record the projector sees first (${order})`, async () => {
      const { category, old, moved } = template();
      const now = new Date();
      await projectRecord(record('INSERT', old), now);
      const views = episodeViews(moved, category);
      expect(views.length).toBeGreaterThan(0);
      const move = [record('INSERT', moved), record('REMOVE', old)];
      for (const r of order === 'put first' ? move : move.reverse()) await projectRecord(r, now);
      // Each view is there, as built from the moved item.
      for (const view of views) expect(await stored(view), keyString(view)).toEqual(view);
      // A repeated deletion of the old item (a redelivered record) changes nothing.
      await projectRecord(record('REMOVE', old), now);
      for (const view of views) expect(await stored(view), keyString(view)).toEqual(view);
      // Deleting the moved item removes them.
      await projectRecord(record('REMOVE', moved), now);
      for (const view of views) expect(await stored(view), keyString(view)).toBeUndefined();
    });
});
