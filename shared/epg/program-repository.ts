import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { ProgramRecord } from '../catalog/model.ts';
import { db } from '../db/client.ts';
import { getByIndex, queryAll } from '../db/query.ts';
import { recordOf } from '../db/record.ts';
import { tableName } from '../db/table.ts';

/**
 * EPG programs: key design and access patterns (see docs/data-model.md, EPG).
 * - program: PK `CHANNEL#<channel id>`, SK `PROGRAM#<start, UTC ISO with milliseconds>` (the
 *   whole ProgramRecord, plus a numeric `version`: 1 when written, +1 per studio update). ISO
 *   instants of one fixed format sort lexicographically = chronologically.
 *     GSI3PK `PROGRAM#<program id>`, GSI3SK `PROGRAM`                  (program by id)
 * - the channel's schedule lock: PK `CHANNEL#<channel id>`, SK `SCHEDULE`, numeric `version`. The
 *   studio's writes that place a program in time bump it in the same transaction as the program
 *   (shared/studio/program-writes.ts), so two overlapping writes can never both succeed. Programs
 *   are read by `SK BETWEEN PROGRAM#… AND PROGRAM#…`, which never reaches it.
 *
 * Programs of a channel never overlap and last at most MAX_PROGRAM_MINUTES, so a program
 * overlapping [from, to) starts in [from − MAX_PROGRAM_MINUTES, to): ONE Query with a BETWEEN key
 * condition (plus a filter `end > from`), whatever the length of the stored schedule. The extra
 * items read are the programs that started in the MAX_PROGRAM_MINUTES before `from` (a few).
 */
export const MAX_PROGRAM_MINUTES = 12 * 60;

const MINUTE = 60_000;
const PK_PREFIX = 'CHANNEL#';
const SK_PREFIX = 'PROGRAM#';

const iso = (instant: number): string => new Date(instant).toISOString();
const pk = (channelId: string) => `${PK_PREFIX}${channelId}`;
const sk = (start: number) => `${SK_PREFIX}${iso(start)}`;
const byIdPk = (programId: string) => `PROGRAM#${programId}`;

/** The key of a program's item: its channel and its start (any ISO instant; stored as UTC ISO). */
export const programKey = (channelId: string, start: string) => ({
  PK: pk(channelId),
  SK: sk(Date.parse(start)),
});

/** The key of a channel's schedule lock item (see above). */
export const scheduleKey = (channelId: string) => ({ PK: pk(channelId), SK: 'SCHEDULE' });

/**
 * The item that stores one program at `version`. Throws for a program that ends before it starts
 * or lasts longer than MAX_PROGRAM_MINUTES: the read path relies on the bound.
 */
export const programItem = (program: ProgramRecord, version: number): Record<string, unknown> => {
  const start = Date.parse(program.start);
  const end = Date.parse(program.end);
  if (!(end > start) || end - start > MAX_PROGRAM_MINUTES * MINUTE) {
    throw new RangeError(
      `Program ${program.program_id}: must end after it starts and last at most ${MAX_PROGRAM_MINUTES} minutes`,
    );
  }
  return {
    PK: pk(program.channel_id),
    SK: sk(start),
    GSI3PK: byIdPk(program.program_id),
    GSI3SK: 'PROGRAM',
    entity: 'program',
    ...program,
    start: iso(start),
    end: iso(end),
    version,
  };
};

/** The items that store one program (the catalogue loader writes them, at version 1). */
export const programItems = (program: ProgramRecord): Record<string, unknown>[] => [programItem(program, 1)];

/** A program as stored, with its item's `version` (0 for an item written before programs had one). */
export type StoredProgram = ProgramRecord & { version: number };

const storedOf = (item: Record<string, unknown>): StoredProgram => {
  const record = recordOf<StoredProgram>(item);
  return { ...record, version: typeof item.version === 'number' ? item.version : 0 };
};

/**
 * One program by id: a Query on GSI3 for its key, then a strongly consistent GetItem of the item
 * itself (the index lags the table, and a program moved in time changes key: the index may still
 * name the old one, which then reads as absent).
 */
export const getProgram = async (programId: string): Promise<StoredProgram | undefined> => {
  const entry = await getByIndex('GSI3', { pk: byIdPk(programId), sk: 'PROGRAM' }, 'PK, SK');
  if (!entry) return undefined;
  const result = await db.send(
    new GetCommand({ TableName: tableName(), Key: { PK: entry.PK, SK: entry.SK }, ConsistentRead: true }),
  );
  return result.Item && result.Item.program_id === programId ? storedOf(result.Item) : undefined;
};

/** The version of a channel's schedule lock (0 when it was never written), read strongly consistently. */
export const getScheduleVersion = async (channelId: string): Promise<number> => {
  const result = await db.send(
    new GetCommand({ TableName: tableName(), Key: scheduleKey(channelId), ConsistentRead: true }),
  );
  return typeof result.Item?.version === 'number' ? result.Item.version : 0;
};

/**
 * Programs of one channel overlapping [from, to) (epoch ms), sorted by start: one Query (pages of
 * 1 MB are followed, which a day's window never reaches: ~40 items of ~600 bytes). `consistent`
 * makes it a strongly consistent read (the studio's overlap check, after reading the lock).
 */
export const listProgramsOverlapping = async (window: {
  channelId: string;
  from: number;
  to: number;
  consistent?: boolean;
}): Promise<ProgramRecord[]> => {
  const { channelId, from, to, consistent } = window;
  if (!(to > from)) return [];
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :lo AND :hi',
    FilterExpression: '#end > :from',
    ExpressionAttributeNames: { '#end': 'end' },
    ExpressionAttributeValues: {
      ':pk': pk(channelId),
      ':lo': sk(from - MAX_PROGRAM_MINUTES * MINUTE),
      // BETWEEN is inclusive: the last millisecond before `to` makes the bound exclusive.
      ':hi': sk(to - 1),
      ':from': iso(from),
    },
    ...(consistent ? { ConsistentRead: true } : {}),
  });
  return items.map((item) => recordOf<ProgramRecord>(item));
};

/** At most this many channel Queries in flight for one guide page. */
const GUIDE_PARALLELISM = 10;

/**
 * The guide grid's access pattern: programs overlapping [from, to) for each channel of a page of
 * channels (the caller pages channels, so this is one Query per channel on the page, ≤ 10 in
 * flight; never a Scan). Returns every requested channel id, with `[]` when it has no programs.
 */
export const listGuidePrograms = async (
  channelIds: readonly string[],
  from: number,
  to: number,
): Promise<Map<string, ProgramRecord[]>> => {
  const result = new Map<string, ProgramRecord[]>(channelIds.map((id) => [id, []]));
  let next = 0;
  const worker = async () => {
    while (next < channelIds.length) {
      const channelId = channelIds[next++]!;
      result.set(channelId, await listProgramsOverlapping({ channelId, from, to }));
    }
  };
  await Promise.all(Array.from({ length: Math.min(GUIDE_PARALLELISM, channelIds.length) }, worker));
  return result;
};

/**
 * The next `limit` programs of a channel starting strictly after `after` (epoch ms), in start
 * order: one Query (`SK > PROGRAM#<after>`, `Limit`), whatever the schedule's length.
 */
export const listProgramsStartingAfter = async (query: {
  channelId: string;
  after: number;
  limit: number;
}): Promise<ProgramRecord[]> => {
  const result = await db.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :lo AND :hi',
      ExpressionAttributeValues: {
        ':pk': pk(query.channelId),
        ':lo': sk(query.after + 1),
        ':hi': `${SK_PREFIX}~`,
      },
      Limit: query.limit,
    }),
  );
  return (result.Items ?? []).map((item) => recordOf<ProgramRecord>(item));
};
