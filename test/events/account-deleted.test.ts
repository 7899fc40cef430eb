import { describe, expect, it } from 'vitest';
import { EVENT_PAYLOADS } from '../../shared/events/catalog.ts';
import { eventsOfRecord } from '../../shared/events/changes.ts';
import { PlatformEvent } from '../../shared/events/envelope.ts';
import { type Account, accountItems } from '../../shared/identity/account-repository.ts';
import { change } from './records.ts';

const account = (extra: Record<string, unknown> = {}) => ({
  ...accountItems({ account_id: 'acc_42', email: 'leaver@example.com' } as Account)[0],
  ...extra,
});

describe('account changes', () => {
  it('the tombstone (DELETE /me) is one account.deleted, with no email in it', () => {
    const events = eventsOfRecord(change(account(), account({ deleted_at: '2026-11-29T10:00:00.000Z' })));
    expect(events).toMatchObject([
      {
        type: 'account.deleted',
        creator_id: 'acc_42',
        data: { account_id: 'acc_42', deleted_at: '2026-11-29T10:00:00.000Z' },
      },
    ]);
    expect(PlatformEvent.safeParse(events[0]).success).toBe(true);
    expect(EVENT_PAYLOADS['account.deleted'].safeParse(events[0]!.data).success).toBe(true);
    expect(JSON.stringify(events)).not.toContain('leaver@example.com');
  });

  it('sign-ups, other changes of an account, a repeated tombstone and the purge say nothing', () => {
    const gone = account({ deleted_at: '2026-11-29T10:00:00.000Z' });
    expect(eventsOfRecord(change(undefined, account()))).toEqual([]);
    expect(eventsOfRecord(change(account(), account({ handle: 'new' })))).toEqual([]);
    expect(eventsOfRecord(change(gone, { ...gone, handle: 'x' }))).toEqual([]);
    expect(eventsOfRecord(change(gone, undefined))).toEqual([]);
  });
});
