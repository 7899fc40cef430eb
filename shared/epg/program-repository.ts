import { GetCommand, QueryCommand } from '../db/document.ts';
import type { ProgramRecord } from '../catalog/model.ts';
import { db } from '../db/client.ts';
import { getByIndex, queryAll } from '../db/query.ts';
import { primaryKey } from '../db/key.ts';
import { recordOf } from '../db/record.ts';
import { tableName } from '../db/table.ts';
import { type TransactOperation, writeIf, writtenIf } from '../db/transaction.ts';
import { updateOf, withCondition } from '../db/update.ts';

/**
 * EPG programs: key design and access patterns (see docs/data-model.md, EPG).
 * - program: PK `CHANNEL#<channel id>`, SK `PROGRAM#<start, UTC ISO with milliseconds>` (the
 *   whole ProgramRecord, plus a numeric `version`: 1 when written, +1 per studio update). ISO
 *   instants of one fixed format sort lexicographically = chronologically.
 *     GSI3PK `PROGRAM#<program id>`, GSI3SK `PROGRAM`                  (program by id)
 *     GSI2PK `GUIDE#<UTC start of its 6-hour bucket>`, GSI2SK `<channel number, 6 digits>#<start>`
 *                                                        (the guide grid: every channel's programs
 *                                                        by start bucket, in channel-number order)
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
/**
 * The guide index's bucket: programs are indexed by the 6-hour UTC block their start falls in.
 * A guide window [from, to) reads the blocks of starts in [from − MAX_PROGRAM_MINUTES, to): 3 or 4
 * Queries for the default 3 hours, 6 or 7 for a whole day, whatever the number of channels on the
 * page. Smaller blocks read fewer programs outside the window but make more Queries.
 */
const GUIDE_BUCKET = 6 * 60 * MINUTE;
const guideBucketPk = (bucketStart: number) => `GUIDE#${iso(bucketStart).slice(0, 13)}`;
const channelSortKey = (channelNumber: number) => String(channelNumber).padStart(6, '0');
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
const scheduleKey = (channelId: string) => ({ PK: pk(channelId), SK: 'SCHEDULE' });

/**
 * The item that stores one program at `version`, on the channel numbered `channelNumber` (the
 * guide index orders by it; a channel's number never changes). Throws for a program that ends
 * before it starts or lasts longer than MAX_PROGRAM_MINUTES: the read path relies on the bound.
 */
export const programItem = (
  program: ProgramRecord,
  version: number,
  channelNumber: number,
): Record<string, unknown> => {
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
    GSI2PK: guideBucketPk(start - (start % GUIDE_BUCKET)),
    GSI2SK: `${channelSortKey(channelNumber)}#${iso(start)}`,
    entity: 'program',
    ...program,
    start: iso(start),
    end: iso(end),
    version,
  };
};

/** The items that store one program (the catalogue loader writes them, at version 1). */
export const programItems = (program: ProgramRecord, channelNumber: number): Record<string, unknown>[] => [
  programItem(program, 1, channelNumber),
];

/**
 * The guide index keys a program item should carry for its channel's number, when they differ
 * from the ones it has (an item written before the guide index, or with another number); else
 * undefined. The rebuild's check (shared/projection/rebuild.ts).
 */
export const guideKeysToRepair = (
  item: Record<string, unknown>,
  channelNumber: number,
): { GSI2PK: unknown; GSI2SK: unknown } | undefined => {
  const want = programItem(recordOf<ProgramRecord>(item), Number(item.version ?? 0), channelNumber);
  return want.GSI2PK === item.GSI2PK && want.GSI2SK === item.GSI2SK
    ? undefined
    : { GSI2PK: want.GSI2PK, GSI2SK: want.GSI2SK };
};

/**
 * Sets a program item's guide index keys, on condition it is still at the version read: a studio
 * write meanwhile wrote the keys itself, and then nothing is written (false).
 */
export const repairGuideKeys = async (
  item: Record<string, unknown>,
  keys: { GSI2PK: unknown; GSI2SK: unknown },
): Promise<boolean> =>
  writtenIf({
    Update: {
      Key: primaryKey(item),
      UpdateExpression: 'SET GSI2PK = :pk, GSI2SK = :sk',
      ConditionExpression: item.version === undefined ? 'attribute_not_exists(version)' : 'version = :v',
      ExpressionAttributeValues: {
        ':pk': keys.GSI2PK,
        ':sk': keys.GSI2SK,
        ...(item.version === undefined ? {} : { ':v': item.version }),
      },
    },
  });

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

/** A channel on a guide page: its number, and its id where known (the ranked list gives numbers only). */
export interface GuideChannel {
  channelId?: string;
  channelNumber: number;
}

/**
 * The guide grid's access pattern: programs overlapping [from, to) for each channel of a page of
 * channels, from the guide index (GSI2, above): one Query per 6-hour block of starts in
 * [from − MAX_PROGRAM_MINUTES, to), all in parallel, each over the page's channel-number range
 * (`GSI2SK BETWEEN`), so the number of calls does not grow with the page (one channel: one Query
 * of its own programs on the table, when its id is given). Channels in the range that are not on
 * the page (suspended, private) are read too: the caller picks its channels by id (the page's
 * numbers come before its creators, read at the same time: issue 41). Returns every channel id
 * given, with `[]` when it has no programs, and any other channel of the range with programs,
 * each list sorted by start. Eventually consistent
 * (an index): a program written a moment ago may show a moment later.
 */
export const listGuidePrograms = async (
  channels: readonly GuideChannel[],
  from: number,
  to: number,
): Promise<Map<string, ProgramRecord[]>> => {
  const result = new Map<string, ProgramRecord[]>(
    channels.flatMap((c) => (c.channelId ? [[c.channelId, []]] : [])),
  );
  if (channels.length === 0 || !(to > from)) return result;
  // One channel by its id: its own Query on the table reads only its programs, in one call.
  const channelId = channels.length === 1 ? channels[0]!.channelId : undefined;
  if (channelId) return result.set(channelId, await listProgramsOverlapping({ channelId, from, to }));
  const numbers = channels.map((c) => c.channelNumber);
  const lo = `${channelSortKey(Math.min(...numbers))}#`;
  const hi = `${channelSortKey(Math.max(...numbers))}#~`;
  const first = from - MAX_PROGRAM_MINUTES * MINUTE;
  const buckets: number[] = [];
  for (let b = first - (first % GUIDE_BUCKET); b < to; b += GUIDE_BUCKET) buckets.push(b);
  const pages = await Promise.all(
    buckets.map((bucket) =>
      queryAll({
        IndexName: 'GSI2',
        KeyConditionExpression: 'GSI2PK = :pk AND GSI2SK BETWEEN :lo AND :hi',
        FilterExpression: '#start < :to AND #end > :from',
        ExpressionAttributeNames: { '#start': 'start', '#end': 'end' },
        ExpressionAttributeValues: {
          ':pk': guideBucketPk(bucket),
          ':lo': lo,
          ':hi': hi,
          ':from': iso(from),
          ':to': iso(to),
        },
      }),
    ),
  );
  // Buckets in time order, each in (channel, start) order: a channel's programs come out sorted.
  for (const item of pages.flat()) {
    const program = recordOf<ProgramRecord>(item);
    const programs = result.get(program.channel_id);
    if (programs) programs.push(program);
    else result.set(program.channel_id, [program]);
  }
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

/** The keys of every item of a channel's schedule (its programs and its lock): a deleted creator's purge. */
export const channelScheduleKeys = async (channelId: string): Promise<Array<{ PK: string; SK: string }>> =>
  (
    await queryAll({
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': pk(channelId) },
      ProjectionExpression: 'PK, SK',
      ConsistentRead: true,
    })
  ).map((item) => ({ PK: String(item.PK), SK: String(item.SK) }));

// ---- Named writes (the studio's, shared/studio/program-writes.ts) -----------------------------

/**
 * The schedule lock's operation: its `version` + 1 from `seen`, the version read (0: the lock
 * does not exist yet, and is created at 1). Any write that placed a program meanwhile moved it,
 * and the transaction carrying this fails.
 */
export const scheduleLockOperation = (channelId: string, seen: number): TransactOperation => ({
  Update: {
    TableName: tableName(),
    Key: scheduleKey(channelId),
    ...withCondition(
      updateOf({ set: { entity: 'channel-schedule' }, add: { version: 1 } }),
      seen === 0
        ? { expression: 'attribute_not_exists(PK)' }
        : { expression: '#c0 = :c0', names: { '#c0': 'version' }, values: { ':c0': seen } },
    ),
  },
});

/** The program item is still at the version read (0: an item written before versions, which has none). */
const atVersion = (seen: number) =>
  seen === 0
    ? {
        ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(#version)',
        ExpressionAttributeNames: { '#version': 'version' },
      }
    : {
        ConditionExpression: '#version = :seen',
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: { ':seen': seen },
      };

/**
 * The operation putting `program` at `version` on the channel numbered `channelNumber`: a new
 * item (`{ new: true }`: its key is free), or over the stored one at the version read
 * (`{ seen }`: its start unchanged).
 */
export const putProgramOperation = (
  program: ProgramRecord,
  version: number,
  channelNumber: number,
  over: { new: true } | { seen: number },
): TransactOperation => ({
  Put: {
    TableName: tableName(),
    Item: programItem(program, version, channelNumber),
    ...('seen' in over ? atVersion(over.seen) : { ConditionExpression: 'attribute_not_exists(PK)' }),
  },
});

/** A stored program's deletion, on condition that it is still at the version read. */
const deletion = (program: StoredProgram) => ({
  Key: programKey(program.channel_id, program.start),
  ...atVersion(program.version),
});

/** The operation deleting a stored program, on condition that it is still at the version read. */
export const deleteProgramOperation = (program: StoredProgram): TransactOperation => ({
  Delete: { TableName: tableName(), ...deletion(program) },
});

/** Deletes a stored program if it is still at the version read; false when it changed or moved since. */
export const deleteProgram = async (program: StoredProgram): Promise<boolean> =>
  (await writeIf({ Delete: deletion(program) })).written;
