import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { ProgramRecord } from '../catalog/model.ts';
import { db } from '../db/client.ts';
import { queryAll } from '../db/query.ts';
import { recordOf } from '../db/record.ts';
import { tableName } from '../db/table.ts';

/**
 * EPG programs: key design and access patterns (see docs/data-model.md, EPG).
 * - program: PK `CHANNEL#<channel id>`, SK `PROGRAM#<start, UTC ISO with milliseconds>` (the
 *   whole ProgramRecord). ISO instants of one fixed format sort lexicographically = chronologically.
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

/**
 * The items that store one program (the catalogue loader writes them). Throws for a program that
 * ends before it starts or lasts longer than MAX_PROGRAM_MINUTES: the read path relies on the bound.
 */
export const programItems = (program: ProgramRecord): Record<string, unknown>[] => {
  const start = Date.parse(program.start);
  const end = Date.parse(program.end);
  if (!(end > start) || end - start > MAX_PROGRAM_MINUTES * MINUTE) {
    throw new RangeError(
      `Program ${program.program_id}: must end after it starts and last at most ${MAX_PROGRAM_MINUTES} minutes`,
    );
  }
  return [
    {
      PK: pk(program.channel_id),
      SK: sk(start),
      entity: 'program',
      ...program,
      start: iso(start),
      end: iso(end),
    },
  ];
};

/**
 * Programs of one channel overlapping [from, to) (epoch ms), sorted by start: one Query (pages of
 * 1 MB are followed, which a day's window never reaches: ~40 items of ~600 bytes).
 */
export const listProgramsOverlapping = async (window: {
  channelId: string;
  from: number;
  to: number;
}): Promise<ProgramRecord[]> => {
  const { channelId, from, to } = window;
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
