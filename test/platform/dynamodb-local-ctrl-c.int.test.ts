import { afterAll, describe, expect, it } from 'vitest';
import { type DynamoDbLocal, startDynamoDbLocal } from '../../scripts/local/dynamodb-local.ts';

const answers = async (endpoint: string) =>
  fetch(endpoint, { method: 'POST' }).then(
    (res) => res.status > 0,
    () => false,
  );
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * Ctrl-C in a terminal sends SIGINT to every process of `npm start`'s group, DynamoDB Local's JVM
 * included. Until the JVM ignored it, it died at once while npm start was still stopping, whose
 * last tick and stream polls then printed ECONNREFUSED stack traces on every Ctrl-C.
 */
describe('DynamoDB Local and Ctrl-C', () => {
  let local: DynamoDbLocal | undefined;
  afterAll(async () => {
    await local?.stop();
  });

  it('outlives a SIGINT to its process; stop() ends it', async () => {
    local = await startDynamoDbLocal();
    process.kill(local.pid, 'SIGINT');
    await new Promise((done) => setTimeout(done, 2_000));
    expect(await answers(local.endpoint)).toBe(true);
    await local.stop();
    expect(alive(local.pid)).toBe(false);
  });
});
