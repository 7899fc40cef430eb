import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The docs' TypeScript examples are compiled by `npm run typecheck` as
 * test/clients/doc-examples.types.ts; this test keeps that file's copies the same, line for line
 * (spacing aside), as the examples the docs show.
 */
const root = resolve(import.meta.dirname, '../..');
const read = (path: string) => readFileSync(resolve(root, path), 'utf8');
const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim().replace(/\s+/g, ' '))
    .filter((line) => line !== '' && !line.startsWith('import '));

/** The compiled copies, by the file they are examples of. */
const compiled = (): Map<string, string[]> => {
  const source = read('test/clients/doc-examples.types.ts');
  return new Map(
    [...source.matchAll(/\/\/ example: (\S+)\n([\s\S]*?)\n\s*\/\/ end/g)].map((m) => [m[1]!, lines(m[2]!)]),
  );
};
const fencedTs = (text: string) => [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);

describe('the documentation examples', () => {
  it("compiles the client's doc comment example (clients/typescript/index.ts)", () => {
    const comment = read('clients/typescript/index.ts')
      .split('*/')[0]!
      .replace(/^\s*\* ?/gm, '');
    const [example] = fencedTs(comment);
    expect(compiled().get('clients/typescript/index.ts')).toEqual(lines(example!));
  });

  it("compiles the README's client example", () => {
    const example = fencedTs(read('README.md')).find((block) => block.includes('createApiClient'));
    expect(compiled().get('README.md')).toEqual(lines(example!));
  });
});
