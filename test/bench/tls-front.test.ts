import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTlsFront, type TlsFront } from '../../bench/tls-front.ts';

// A plain-http target that answers with what it was sent: bytes must cross the front both ways.
let target: Server;
let front: TlsFront;
beforeAll(async () => {
  target = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => res.end(`echo:${Buffer.concat(chunks).toString()}`));
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', () => resolve()));
  front = await startTlsFront((target.address() as { port: number }).port);
}, 60_000);
afterAll(async () => {
  await front?.stop();
  await new Promise((resolve) => target?.close(resolve));
});

// A fresh Node process that trusts nothing but what its environment says, as the bench's children.
const post = (env: Record<string, string>) =>
  promisify(execFile)(
    process.execPath,
    [
      '-e',
      `fetch(process.argv[1], { method: 'POST', body: 'ping' }).then((r) => r.text()).then((t) => process.stdout.write(t), (e) => { process.stdout.write('error:' + (e.cause?.code ?? e.message)); });`,
      front.endpoint,
    ],
    { env: { PATH: process.env.PATH ?? '', ...env } },
  );

describe('TLS front (bench/tls-front.ts, the Lambda-like init over HTTPS)', () => {
  it('serves https on the loopback with a certificate trusted through NODE_EXTRA_CA_CERTS, piping both ways', async () => {
    expect(front.endpoint).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const { stdout } = await post({ NODE_EXTRA_CA_CERTS: front.caFile });
    expect(stdout).toBe('echo:ping');
  }, 30_000);

  it('is not trusted without NODE_EXTRA_CA_CERTS (self-signed, made at run time)', async () => {
    const { stdout } = await post({});
    expect(stdout).toMatch(/^error:.*(SELF_SIGNED|CERT|certificate)/i);
  }, 30_000);

  it('removes its key and certificate when stopped', async () => {
    const other = await startTlsFront(1);
    expect(existsSync(other.caFile)).toBe(true);
    await other.stop();
    expect(existsSync(dirname(other.caFile))).toBe(false);
  }, 30_000);
});
