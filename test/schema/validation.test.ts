import { describe, expect, it } from 'vitest';
import { parseBody } from '../../shared/schema/validation.ts';
import { createShowBody } from '../../shared/studio/schemas.ts';

const show = { title: 'Loops', description: '', category: 'music', rating: 'TV-PG' };
const errorsOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return (error as { errors?: unknown; message: string }).errors ?? (error as Error).message;
  }
  throw new Error('expected a refusal');
};

describe('validation errors name each failure once', () => {
  it('a body field two checks refuse with the same words is one error (a javascript: URL is neither https nor ours)', () => {
    expect(
      errorsOf(() => parseBody(createShowBody, { ...show, thumbnail_url: 'javascript:alert(1)' })),
    ).toEqual([{ field: 'thumbnail_url', message: 'thumbnail_url must be an https URL' }]);
  });

  it('different failures of one field, and of different fields, are all kept', () => {
    const errors = errorsOf(() => parseBody(createShowBody, { ...show, title: '', rating: 'X', extra: 1 }));
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'title' }),
        expect.objectContaining({ field: 'rating' }),
        { field: 'extra', message: 'extra is not a field of this request body' },
      ]),
    );
  });
});
