import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { recordOf } from '../../shared/db/record.ts';
import { cancellationCodes, isConditionFailure } from '../../shared/db/transaction.ts';
import { updateOf, withCondition } from '../../shared/db/update.ts';

const cancelled = (...codes: string[]) =>
  new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code })),
  });

describe('recordOf', () => {
  const item = {
    PK: 'SHOW#sh_1',
    SK: 'PROFILE',
    GSI1PK: 'CREATOR_SHOWS#cr_1',
    GSI1SK: 'PROFILE#sh_1',
    GSI2PK: 'SHOW_SLUG#a',
    GSI2SK: 'SHOW',
    GSI3PK: 'EPISODE#ep_1',
    GSI3SK: 'EPISODE',
    entity: 'show',
    id: 'sh_1',
    title: 'A',
    expires_at_epoch: 1_800_000_000,
  };

  it('drops the key attributes of the table and every index and the entity tag, keeping the data', () => {
    expect(recordOf(item)).toEqual({ id: 'sh_1', title: 'A', expires_at_epoch: 1_800_000_000 });
    expect(item.PK).toBe('SHOW#sh_1');
  });

  it('drops the TTL attribute only when asked', () => {
    expect(recordOf(item, { withoutTtl: true })).toEqual({ id: 'sh_1', title: 'A' });
  });
});

describe('transaction cancellation', () => {
  it('lists the reason codes in operation order', () => {
    expect(cancellationCodes(cancelled('None', 'ConditionalCheckFailed'))).toEqual([
      'None',
      'ConditionalCheckFailed',
    ]);
  });

  it('is undefined for any other error', () => {
    expect(cancellationCodes(new Error('ConditionalCheckFailed'))).toBeUndefined();
    expect(isConditionFailure(new Error('ConditionalCheckFailed'))).toBe(false);
  });

  it('tells a failed condition from a conflict', () => {
    expect(isConditionFailure(cancelled('None', 'ConditionalCheckFailed'))).toBe(true);
    expect(isConditionFailure(cancelled('TransactionConflict', 'None'))).toBe(false);
  });
});

describe('updateOf (shared/db/update.ts)', () => {
  it('generates names and values for SET, if-absent SET, ADD and REMOVE, map members included', () => {
    expect(
      updateOf({
        set: { name: 'A', 'channel.channel_name': 'A TV', skipped: undefined },
        setIfAbsent: { joined: 't' },
        add: { version: 1 },
        remove: ['suspended_at'],
      }),
    ).toEqual({
      UpdateExpression: 'SET #u0 = :u0, #u1.#u2 = :u1, #u3 = if_not_exists(#u3, :u2) ADD #u4 :u3 REMOVE #u5',
      ExpressionAttributeNames: {
        '#u0': 'name',
        '#u1': 'channel',
        '#u2': 'channel_name',
        '#u3': 'joined',
        '#u4': 'version',
        '#u5': 'suspended_at',
      },
      ExpressionAttributeValues: { ':u0': 'A', ':u1': 'A TV', ':u2': 't', ':u3': 1 },
    });
  });

  it('leaves the values out of a REMOVE alone and refuses an empty update', () => {
    expect(updateOf({ remove: ['a'] })).toEqual({
      UpdateExpression: 'REMOVE #u0',
      ExpressionAttributeNames: { '#u0': 'a' },
    });
    expect(() => updateOf({ set: { a: undefined } })).toThrow(RangeError);
  });

  it("merges a condition's names and values", () => {
    expect(
      withCondition(updateOf({ add: { n: 1 } }), {
        expression: '#c0 < :c0',
        names: { '#c0': 'n' },
        values: { ':c0': 5 },
      }),
    ).toMatchObject({
      ConditionExpression: '#c0 < :c0',
      ExpressionAttributeNames: { '#u0': 'n', '#c0': 'n' },
      ExpressionAttributeValues: { ':u0': 1, ':c0': 5 },
    });
  });
});
