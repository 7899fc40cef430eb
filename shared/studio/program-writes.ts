import { backoff } from '../backoff.ts';
import { randomBytes } from 'node:crypto';
import { type CreatorRecord, type ProgramRecord, programContent } from '../catalog/model.ts';
import { type TransactOperation, transact } from '../db/transaction.ts';
import {
  deleteProgramOperation,
  deleteProgram as deleteStoredProgram,
  getProgram,
  getScheduleVersion,
  listProgramsOverlapping,
  MAX_PROGRAM_MINUTES,
  putProgramOperation,
  type StoredProgram,
  scheduleLockOperation,
} from '../epg/program-repository.ts';
import { ConflictError, NotFoundError, ServiceUnavailableError, ValidationError } from '../errors/errors.ts';
import { getEpisode, getShow } from '../shows/show-repository.ts';
import type { CreateProgramBody, StudioProgram, UpdateProgramBody } from './schedule-schemas.ts';

/**
 * The studio's writes of a creator's channel programs (`/studio/channel/programs`).
 *
 * **No overlap, race-free.** Programs of a channel never overlap ([start, end) intervals), and two
 * concurrent writes must not both place a program in the same time. Each channel has a schedule
 * lock item (numeric `version`; shared/epg/program-repository.ts).
 * A write that places a program in time (create, or a change of its times):
 *   1. reads the lock's version (strongly consistent; 0 when the item does not exist yet),
 *   2. reads the programs overlapping the new [start, end) (one strongly consistent Query): any
 *      other than the program itself is a 409,
 *   3. writes ONE TransactWriteItems: an Update of the lock conditioned on the version it read
 *      (that it does not exist, for 0) that adds 1, plus the program's item(s).
 * Any write that committed between 1 and 3 moved the lock, so the transaction is cancelled and the
 * write starts again from 1 (a few times, with jitter), where it now sees the program that won:
 * of N concurrent overlapping POSTs exactly one answers 201 and the others 409. Only writes that
 * place programs take the lock; a title change or a delete cannot create an overlap, and is
 * guarded by the program item's own `version` instead.
 *
 * **Moving a program** changes its key (its start is part of it): the transaction deletes the old
 * item (condition: the version read) and puts the new one (condition: its key is free).
 *
 * **A program without catalogue content.** ProgramRecord (and the EPG's program object) always has
 * `content_type`/`content_id`. A program with none is stored as `content_type: 'show'` and
 * `content_id` = its own program id (never a show id: those are `sh_…`), the convention of the demo
 * catalogue's generic programs (`pg_show_…`); every view answers it as `content_type: null,
 * content_id: null` (`programContent`). Its thumbnail is a generated one under the CDN.
 */

const MINUTE = 60_000;
const ATTEMPTS = 8;

const cdn = () => process.env.CDN_URL ?? 'https://cdn.example.com';
const newProgramId = () => `pg_${randomBytes(6).toString('hex')}`;

/** A stored program as the studio answers it. */
export const studioProgram = (p: StoredProgram): StudioProgram => {
  return {
    program_id: p.program_id,
    channel_id: p.channel_id,
    creator_id: p.creator_id,
    title: p.title,
    description: p.description,
    thumbnail_url: p.thumbnail_url,
    start_time: new Date(p.start).toISOString(),
    end_time: new Date(p.end).toISOString(),
    duration_minutes: Math.round((Date.parse(p.end) - Date.parse(p.start)) / MINUTE),
    rating: p.rating,
    ...programContent(p),
    version: p.version,
  };
};

const overlapError = () => new ConflictError('This program overlaps another program of the channel');

/** The program's [start, end) checked against the read path's bound (422 otherwise). */
const checkTimes = (start: number, end: number, endField: 'end_time' | 'duration_minutes') => {
  if (!(end > start))
    throw new ValidationError([{ field: endField, message: 'the program must end after it starts' }]);
  if (end - start > MAX_PROGRAM_MINUTES * MINUTE)
    throw new ValidationError([
      { field: endField, message: `a program lasts at most ${MAX_PROGRAM_MINUTES} minutes` },
    ]);
};

interface Content {
  content_type: 'show' | 'episode';
  content_id: string;
  thumbnail_url: string;
}

/** The caller's show or episode `id`, or a 422 on `content_id` (unknown, or another creator's). */
const ownContent = async (creatorId: string, type: 'show' | 'episode', id: string): Promise<Content> => {
  const found = type === 'show' ? await getShow(id) : await getEpisode(id);
  if (!found || found.creator_id !== creatorId)
    throw new ValidationError([{ field: 'content_id', message: `must be the id of one of your ${type}s` }]);
  return { content_type: type, content_id: id, thumbnail_url: found.thumbnail_url };
};

const noContent = (programId: string): Content => ({
  content_type: 'show',
  content_id: programId,
  thumbnail_url: `${cdn()}/epg/${programId}.jpg`,
});

/** Steps 1 and 2 of the design above: the lock's version, after checking [start, end) is free. */
const lockIfFree = async (channelId: string, start: number, end: number, self?: string): Promise<number> => {
  const seen = await getScheduleVersion(channelId);
  const overlapping = await listProgramsOverlapping({ channelId, from: start, to: end, consistent: true });
  if (overlapping.some((p) => p.program_id !== self)) throw overlapError();
  return seen;
};

const contended = () =>
  new ServiceUnavailableError("The channel's schedule is being changed by other requests, retry shortly");

/** `POST /studio/channel/programs`: a new program on the creator's channel (201), or 409 on overlap. */
export const createProgram = async (
  creator: CreatorRecord,
  body: CreateProgramBody,
): Promise<StudioProgram> => {
  const start = Date.parse(body.start_time);
  const end =
    body.end_time !== undefined ? Date.parse(body.end_time) : start + body.duration_minutes! * MINUTE;
  checkTimes(start, end, body.end_time !== undefined ? 'end_time' : 'duration_minutes');
  const programId = newProgramId();
  const content =
    body.content_type !== undefined && body.content_id !== undefined
      ? await ownContent(creator.id, body.content_type, body.content_id)
      : noContent(programId);
  const channelId = creator.channel.channel_id;
  const program: StoredProgram = {
    program_id: programId,
    creator_id: creator.id,
    channel_id: channelId,
    title: body.title,
    description: body.description ?? '',
    ...content,
    start: new Date(start).toISOString(),
    end: new Date(end).toISOString(),
    rating: body.rating,
    version: 1,
  };
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const seen = await lockIfFree(channelId, start, end);
    const put = putProgramOperation(program, 1, creator.channel.channel_number, { new: true });
    if ((await transact([scheduleLockOperation(channelId, seen), put])).written)
      return studioProgram(program);
    await backoff(attempt + 1, 10, 250);
  }
  throw contended();
};

/** The caller's channel's program `programId`, or 404 (unknown, or another channel's). */
const ownProgram = async (creator: CreatorRecord, programId: string): Promise<StoredProgram> => {
  const program = await getProgram(programId);
  if (!program || program.channel_id !== creator.channel.channel_id)
    throw new NotFoundError('Program not found');
  return program;
};

/** The program `current` becomes with `body` applied (times and content resolved, not yet checked for overlap). */
const applyChanges = async (
  creator: CreatorRecord,
  current: StoredProgram,
  body: UpdateProgramBody,
): Promise<ProgramRecord> => {
  const oldStart = Date.parse(current.start);
  const oldEnd = Date.parse(current.end);
  const start = body.start_time !== undefined ? Date.parse(body.start_time) : oldStart;
  const end =
    body.end_time !== undefined
      ? Date.parse(body.end_time)
      : body.duration_minutes !== undefined
        ? start + body.duration_minutes * MINUTE
        : start + (oldEnd - oldStart); // moving the start alone keeps the length
  checkTimes(
    start,
    end,
    body.end_time !== undefined || body.duration_minutes === undefined ? 'end_time' : 'duration_minutes',
  );
  let content: Content = {
    content_type: current.content_type,
    content_id: current.content_id,
    thumbnail_url: current.thumbnail_url,
  };
  if (body.content_type === null) content = noContent(current.program_id);
  else if (body.content_type !== undefined && body.content_id)
    content = await ownContent(creator.id, body.content_type, body.content_id);
  return {
    program_id: current.program_id,
    creator_id: current.creator_id,
    channel_id: current.channel_id,
    title: body.title ?? current.title,
    description: body.description ?? current.description,
    ...content,
    start: new Date(start).toISOString(),
    end: new Date(end).toISOString(),
    rating: body.rating ?? current.rating,
  };
};

/** `PATCH /studio/channel/programs/{program_id}`: any field; new times are checked for overlap (itself excluded). */
export const updateProgram = async (
  creator: CreatorRecord,
  programId: string,
  body: UpdateProgramBody,
): Promise<StudioProgram> => {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const current = await ownProgram(creator, programId);
    const next = await applyChanges(creator, current, body);
    const start = Date.parse(next.start);
    const end = Date.parse(next.end);
    const moved = start !== Date.parse(current.start);
    const retimed = moved || end !== Date.parse(current.end);
    const version = current.version + 1;
    const operations: TransactOperation[] = [];
    if (retimed) {
      const seen = await lockIfFree(current.channel_id, start, end, programId);
      operations.push(scheduleLockOperation(current.channel_id, seen));
    }
    const channelNumber = creator.channel.channel_number;
    if (moved)
      operations.push(
        deleteProgramOperation(current),
        putProgramOperation(next, version, channelNumber, { new: true }),
      );
    else operations.push(putProgramOperation(next, version, channelNumber, { seen: current.version }));
    // Not written: a condition failed or another transaction conflicted; read again and retry.
    if ((await transact(operations)).written) return studioProgram({ ...next, version });
    await backoff(attempt + 1, 10, 250);
  }
  throw contended();
};

/** `DELETE /studio/channel/programs/{program_id}`: removes the program (guarded by the version read). */
export const deleteProgram = async (creator: CreatorRecord, programId: string): Promise<void> => {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const current = await ownProgram(creator, programId);
    if (await deleteStoredProgram(current)) return;
    // Changed or moved since it was read: read it again (a 404 if it is gone).
    await backoff(attempt + 1, 10, 250);
  }
  throw contended();
};
