import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { batchGet, batchPut } from '../../shared/db/batch.ts';

describe('batchGet', () => {
  it('reads a key named twice once, and answers it at each place it was asked (BatchGetItem refuses duplicates)', async () => {
    const pk = `test#${randomUUID()}`;
    await batchPut([
      { PK: pk, SK: 'a', n: 1 },
      { PK: pk, SK: 'b', n: 2 },
    ]);
    const a = { PK: pk, SK: 'a' };
    const b = { PK: pk, SK: 'b' };
    const found = await batchGet([a, b, { ...a }, { PK: pk, SK: 'missing' }]);
    expect(found.map((item) => item.n)).toEqual([1, 2, 1]);
  });
});
