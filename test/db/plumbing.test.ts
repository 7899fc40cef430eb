import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { recordOf } from '../../shared/db/record.ts';
import { cancellationCodes, isConditionFailure } from '../../shared/db/transaction.ts';

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
    GSI1SK: 'SHOW#sh_1#PROFILE',
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
