import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { README, withEndpoints } from '../../scripts/readme-endpoints.ts';

describe('README endpoint list', () => {
  it('matches the route table (run npm run docs:endpoints after changing routes)', () => {
    const readme = readFileSync(README, 'utf8');
    expect(withEndpoints(readme)).toBe(readme);
  });
});
