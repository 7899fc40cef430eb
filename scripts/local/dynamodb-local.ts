import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';

/** DynamoDB Local 1.25.1 ships inside this npm package (see README.md, "The two commands"). */
const EMULATOR_PACKAGE = 'amplify-dynamodb-simulator@2.9.30';
const ROOT = resolve(import.meta.dirname, '../..');
const CACHE_DIR = join(ROOT, '.local', 'dynamodb-local');

/** Fetches DynamoDB Local from the npm registry into a git-ignored cache, once. */
export const ensureDynamoDbLocal = (): string => {
  const jar = join(CACHE_DIR, 'DynamoDBLocal.jar');
  if (existsSync(jar)) return CACHE_DIR;
  const work = join(ROOT, '.local', 'tmp-dynamodb-download');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const tarball = execFileSync(npm, ['pack', EMULATOR_PACKAGE, '--silent', '--pack-destination', work], {
    cwd: work,
    encoding: 'utf8',
  })
    .trim()
    .split('\n')
    .pop()!;
  execFileSync('tar', ['-xzf', join(work, tarball), '-C', work, 'package/emulator']);
  rmSync(CACHE_DIR, { recursive: true, force: true });
  mkdirSync(join(ROOT, '.local'), { recursive: true });
  execFileSync('mv', [join(work, 'package', 'emulator'), CACHE_DIR]);
  rmSync(work, { recursive: true, force: true });
  return CACHE_DIR;
};

/** A free TCP port on the loopback interface. */
export const freePort = (): Promise<number> =>
  new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port')),
      );
    });
  });

export interface DynamoDbLocal {
  endpoint: string;
  /** The JVM's process id. */
  pid: number;
  stop(): Promise<void>;
}

const waitForPort = async (port: number, child: ChildProcess, timeoutMs: number): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`DynamoDB Local exited with code ${child.exitCode}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}`, { method: 'POST' });
      if (response.status > 0) return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`DynamoDB Local did not start within ${timeoutMs} ms`);
};

/** Starts an in-memory DynamoDB Local on a free loopback port (Java is the only prerequisite). */
export const startDynamoDbLocal = async (options: { port?: number } = {}): Promise<DynamoDbLocal> => {
  const dir = ensureDynamoDbLocal();
  const port = options.port ?? (await freePort());
  // Through a shell that ignores SIGINT, which the JVM then keeps ignoring (it leaves an ignored
  // SIGINT alone) across `exec`: Ctrl-C in the terminal signals the whole process group, and a
  // JVM that died with it left `npm start`'s stop (the tick under way, the stream readers' last
  // polls) to print ECONNREFUSED stack traces. The JVM now ends when `stop()` sends SIGTERM, when
  // this process exits (`killOnExit`), or with its group's SIGTERM or SIGKILL.
  const shell = process.platform === 'win32' ? [] : ['-c', 'trap "" INT; exec "$@"', 'sh'];
  const child = spawn(
    shell.length > 0 ? 'sh' : 'java',
    [
      ...shell,
      ...(shell.length > 0 ? ['java'] : []),
      // Seeding is CPU-bound in the emulator: a fixed heap and the parallel collector load the
      // demo catalogue ~12% faster than the defaults (measured: 13.1-13.6 s vs 14.7-15.6 s).
      '-Xms512m',
      '-Xmx512m',
      '-XX:+UseParallelGC',
      `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`,
      '-jar',
      join(dir, 'DynamoDBLocal.jar'),
      '-inMemory',
      // One database for every access key and region (otherwise clients with other credentials see no tables).
      '-sharedDb',
      '-disableTelemetry',
      '-port',
      String(port),
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], cwd: dir },
  );
  // A process that ends without stopping it (an uncaught error in a script) takes the JVM along,
  // rather than leaving it running on the machine.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.removeListener('exit', killOnExit));
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr = (stderr + String(chunk)).slice(-4000);
  });
  try {
    // A JVM starts in 2-5 s idle; on a 2-core machine under a parallel test run it has taken
    // over 30 s, so the limit only catches a JVM that never starts.
    await waitForPort(port, child, 120_000);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${(error as Error).message}\n${stderr}`);
  }
  return {
    endpoint: `http://127.0.0.1:${port}`,
    pid: child.pid ?? 0,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 3000).unref();
      }),
  };
};
