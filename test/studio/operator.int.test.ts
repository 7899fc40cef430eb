import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { GetCommand, PutCommand } from '../../shared/db/document.ts';
import { describe, expect, it } from 'vitest';
import { creatorFromAccount } from '../../shared/identity/creator-from-account.ts';
import { markDeleted } from '../../shared/identity/account-repository.ts';
import { creatorItem, creatorKey } from '../../shared/creators/creator-repository.ts';
import { db } from '../../shared/db/client.ts';
import { tableName } from '../../shared/db/table.ts';
import {
  setEditorialFlags,
  DeletedCreatorError,
  suspendCreator,
  UnknownCreatorError,
  unsuspendCreator,
} from '../../shared/studio/operator-writes.ts';
import { testApi } from '../support/api.ts';
import { studioCreator } from '../support/studio.ts';
import { waitFor } from '../support/wait.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

/** A creator's source item as onboarding leaves it (silver, no flags), version 1. */
const newCreator = async (): Promise<string> => {
  const id = `acc_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const creator = creatorFromAccount(
    { account_id: id, creator_name: 'Operator Test', handle: `op_${id.slice(4, 14)}`, category: 'comedy' },
    9000,
    new Date('2026-11-01T00:00:00Z'),
  );
  await db.send(new PutCommand({ TableName: tableName(), Item: { ...creatorItem(creator), version: 1 } }));
  return id;
};

const stored = async (id: string) =>
  (await db.send(new GetCommand({ TableName: tableName(), Key: creatorKey(id) }))).Item!;

describe('operator writes (shared/studio/operator-writes.ts)', () => {
  it('sets editorial flags and tier, each call adding 1 to the version, leaving the rest alone', async () => {
    const id = await newCreator();
    const before = await stored(id);
    const after = await setEditorialFlags(id, { is_featured: true, tier: 'gold' });
    expect(after).toMatchObject({ id, is_featured: true, is_hot: false, tier: 'gold', version: 2 });
    expect(await stored(id)).toEqual({ ...before, is_featured: true, tier: 'gold', version: 2 });
    const hot = await setEditorialFlags(id, { is_hot: true, is_featured: false });
    expect(hot).toMatchObject({ is_featured: false, is_hot: true, tier: 'gold', version: 3 });
    expect(() => setEditorialFlags(id, {})).toThrow(RangeError);
  });

  it('suspends (suspended_at) and unsuspends (removed), with the version; the creator page hides meanwhile', async () => {
    const api = await testApi();
    const id = await newCreator();
    expect((await api.get(`/creators/${id}`)).status).toBe(200);
    const now = new Date('2026-11-24T04:00:00.000Z');
    expect(await suspendCreator(id, now)).toMatchObject({ suspended_at: now.toISOString(), version: 2 });
    expect((await stored(id)).suspended_at).toBe(now.toISOString());
    expect((await api.get(`/creators/${id}`)).status).toBe(404);
    const lifted = await unsuspendCreator(id);
    expect(lifted.version).toBe(3);
    expect(lifted).not.toHaveProperty('suspended_at');
    expect(await stored(id)).not.toHaveProperty('suspended_at');
    expect((await api.get(`/creators/${id}`)).status).toBe(200);
  });

  it('does not bring back a creator whose account is deleted (hidden until its purge)', async () => {
    const { creatorId: id } = await studioCreator(await testApi());
    await suspendCreator(id, new Date());
    expect(await markDeleted(id, new Date())).toBe(true);
    await expect(unsuspendCreator(id)).rejects.toBeInstanceOf(DeletedCreatorError);
    expect((await stored(id)).suspended_at).toBeDefined();
  });

  it("hides a suspended creator's shows and episodes everywhere, and brings them back", async () => {
    const api = await testApi();
    const creator = await studioCreator(api, 'education');
    const title = `Suspense ${randomUUID().slice(0, 8)}`;
    const created = await api.post('/studio/shows', {
      token: creator.token,
      body: { title, description: 'Hidden with its creator.', category: 'education', rating: 'TV-PG' },
    });
    expect(created.status).toBe(201);
    const showId: string = created.body.data.show_id;
    const episode = await api.post(`/studio/shows/${showId}/episodes`, {
      token: creator.token,
      body: { season: 1, episode_number: 1, title: 'Pilot', duration_seconds: 600, is_free: true },
    });
    expect(episode.status).toBe(201);
    const searchHits = async () =>
      (await api.get(`/shows/search?q=${encodeURIComponent(title)}`)).body.data.shows.map((s: any) => s.id);
    const inNewest = async () =>
      (await api.get('/shows?category=education&sort=newest&limit=50')).body.data.shows.some(
        (s: any) => s.id === showId,
      );
    await waitFor(async () => (await searchHits()).includes(showId) && (await inNewest()), 'the show listed');

    await suspendCreator(creator.creatorId, new Date());
    expect((await api.get(`/shows/${showId}`)).status).toBe(404);
    await waitFor(async () => !(await searchHits()).includes(showId) && !(await inNewest()), 'the show gone');

    await unsuspendCreator(creator.creatorId);
    expect((await api.get(`/shows/${showId}`)).status).toBe(200);
    await waitFor(async () => (await searchHits()).includes(showId) && (await inNewest()), 'the show back');
  });

  it('refuses an unknown creator and creates nothing', async () => {
    const ghost = `acc_ghost${randomUUID().replace(/-/g, '').slice(0, 8)}`;
    await expect(setEditorialFlags(ghost, { is_hot: true })).rejects.toBeInstanceOf(UnknownCreatorError);
    await expect(suspendCreator(ghost, new Date())).rejects.toThrow(`no creator has the id "${ghost}"`);
    await expect(unsuspendCreator(ghost)).rejects.toBeInstanceOf(UnknownCreatorError);
    const item = await db.send(new GetCommand({ TableName: tableName(), Key: creatorKey(ghost) }));
    expect(item.Item).toBeUndefined();
  });
});

describe('npm run operator (scripts/operator.ts)', () => {
  const operator = async (args: string[], env: Record<string, string | undefined> = {}) => {
    const merged: Record<string, string | undefined> = { ...process.env, TABLE_NAME: tableName(), ...env };
    for (const name of Object.keys(merged)) if (merged[name] === undefined) delete merged[name];
    try {
      const { stdout, stderr } = await run(
        process.execPath,
        ['--import', 'tsx', 'scripts/operator.ts', ...args],
        {
          cwd: ROOT,
          env: merged,
        },
      );
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };

  it('runs set-flags, suspend and unsuspend; an unknown creator or bad arguments exit 1', async () => {
    const id = await newCreator();
    const flags = await operator([
      'set-flags',
      id,
      '--featured',
      'true',
      '--hot',
      'true',
      '--tier',
      'platinum',
    ]);
    expect(flags.code, flags.stderr).toBe(0);
    expect(await stored(id)).toMatchObject({ is_featured: true, is_hot: true, tier: 'platinum', version: 2 });
    expect((await operator(['suspend', id])).code).toBe(0);
    expect((await stored(id)).suspended_at).toEqual(expect.any(String));
    expect((await operator(['unsuspend', id])).code).toBe(0);
    expect(await stored(id)).not.toHaveProperty('suspended_at');

    const unknown = await operator(['suspend', 'acc_nobody_here']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no creator has the id "acc_nobody_here"');
    for (const args of [
      ['set-flags', id],
      ['set-flags', id, '--tier', 'bronze'],
      ['set-flags', id, '--hot', 'yes'],
      ['suspend', id, '--hot', 'true'],
      ['promote', id],
      ['suspend'],
    ]) {
      const bad = await operator(args);
      expect(bad.code, args.join(' ')).toBe(1);
    }
    expect((await stored(id)).version).toBe(4);
  }, 120_000);

  it('refuses to run from a test run without AWS_ENDPOINT_URL_DYNAMODB', async () => {
    const refused = await operator(['suspend', 'acc_x'], {
      VITEST: 'true',
      AWS_ENDPOINT_URL_DYNAMODB: undefined,
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('refusing to change AWS from a test run');
  }, 60_000);
});
