import { afterAll } from 'vitest';

/**
 * What an integration file's support code must undo when the file ends (this module is a setup
 * file of the integration project, so each file runs the callbacks after its own afterAll hooks).
 */
const atEnd: Array<() => Promise<void>> = [];

/** Runs `undo` when this test file ends. */
export const atFileEnd = (undo: () => Promise<void>): void => {
  atEnd.push(undo);
};

afterAll(async () => {
  for (const undo of atEnd.splice(0).reverse()) await undo();
});
