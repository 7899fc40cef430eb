import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { clientsBeyondFloor, ENV_FLOOR, measureColdImports } from '../../bench/bundles.ts';
import { NODE22_VERSION } from '../../scripts/fetch-node22.ts';

const dir = mkdtempSync(join(tmpdir(), 'cold-imports-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const bundle = (name: string, source: string) => {
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, source);
  return { name, file, bytes: source.length, gzipBytes: source.length };
};

describe('cold imports (bench/bundles.ts measureColdImports, issue 41)', () => {
  it("imports on the Lambda runtime's Node and budgets process CPU time, with wall time beside it", () => {
    const floor = bundle(ENV_FLOOR, 'export const handler = () => 1;\n');
    // Uses 40 ms of CPU at import, whatever the machine's load does to its wall time.
    const busy = bundle(
      'busy',
      'const s = process.cpuUsage();\nwhile (true) { const d = process.cpuUsage(s); if (d.user + d.system >= 40_000) break; }\nexport const handler = () => 1;\n',
    );
    const { node, imports } = measureColdImports([floor, busy], 1);
    expect(node).toBe(`v${NODE22_VERSION}`);
    const busyImport = imports.get('busy')!;
    expect(busyImport.cpuMs).toBeGreaterThanOrEqual(40);
    // Each ratio is to the floor imported right before it (an empty module: well under 8 ms).
    expect(busyImport.ratio).toBeGreaterThan(5);
    expect(busyImport.ms).toBeGreaterThan(20);
    expect(busyImport.wallRatio).toBeGreaterThan(1);
    expect(imports.get(ENV_FLOOR)!.ratio).toBe(1);
  }, 60_000);

  it("names the clients a bundle carries beyond the fixed-package floor, not the floor's own packages", () => {
    const inputs = [
      'functions/chat/create-chat-ban.ts',
      'node_modules/@aws-sdk/client-dynamodb/dist-es/DynamoDBClient.js',
      'node_modules/@aws-sdk/lib-dynamodb/dist-es/index.js',
      'node_modules/@aws-sdk/client-ivschat/dist-es/IvschatClient.js',
      'node_modules/@aws-sdk/client-ivschat/node_modules/@aws-sdk/core/dist-es/index.js',
      'node_modules/@aws-sdk/client-ivschat/dist-es/commands/DisconnectUserCommand.js',
      'node_modules/aws-jwt-verify/dist/esm/jwt-rsa.js',
      'node_modules/@middy/core/index.js',
      'node_modules/zod/v4/mini/schemas.js',
      'node_modules/stripe/esm/stripe.esm.node.js',
      'node_modules/@aws-sdk/client-dynamodb-streams/dist-es/index.js',
    ];
    expect(clientsBeyondFloor(inputs)).toEqual([
      '@aws-sdk/client-dynamodb-streams',
      '@aws-sdk/client-ivschat',
      'aws-jwt-verify',
      'stripe',
    ]);
    expect(clientsBeyondFloor(inputs.slice(0, 3))).toEqual([]);
  });
});
