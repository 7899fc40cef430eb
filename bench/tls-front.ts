/**
 * An HTTPS front for a plain-TCP service on the loopback (DynamoDB Local), so that a bench reaches
 * it as Lambda reaches DynamoDB: over TLS, a handshake per new socket (bench/lambda-init.ts). Each
 * accepted TLS connection is piped to the target port; nothing is parsed. The certificate is
 * self-signed for 127.0.0.1 and localhost, made at run time with the JDK's keytool (Java is there
 * for DynamoDB Local; no openssl CLI is assumed) in a temporary folder removed by `stop`: no key
 * is ever in the repo. A client trusts it through `caFile`, e.g. NODE_EXTRA_CA_CERTS.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:tls';

export interface TlsFront {
  /** `https://<host>:<port>`: what a client is given instead of the target's http URL. */
  endpoint: string;
  /** The certificate (PEM) to trust, e.g. as NODE_EXTRA_CA_CERTS. */
  caFile: string;
  stop(): Promise<void>;
}

/** A self-signed RSA 2048 certificate for 127.0.0.1 and localhost (DynamoDB's endpoint serves RSA 2048). */
const selfSigned = (dir: string) => {
  const keystore = join(dir, 'front.p12');
  const caFile = join(dir, 'front.pem');
  const passphrase = randomBytes(12).toString('hex');
  const store = ['-alias', 'front', '-keystore', keystore, '-storetype', 'PKCS12', '-storepass', passphrase];
  const keytool = process.env.JAVA_HOME ? join(process.env.JAVA_HOME, 'bin', 'keytool') : 'keytool';
  execFileSync(
    keytool,
    [
      '-genkeypair',
      ...store,
      '-keypass',
      passphrase,
      '-keyalg',
      'RSA',
      '-keysize',
      '2048',
      '-validity',
      '2',
      '-dname',
      'CN=localhost',
      '-ext',
      'SAN=ip:127.0.0.1,dns:localhost',
    ],
    { stdio: 'ignore' },
  );
  execFileSync(keytool, ['-exportcert', '-rfc', ...store, '-file', caFile], { stdio: 'ignore' });
  return { pfx: readFileSync(keystore), passphrase, caFile };
};

/** Starts a TLS listener on a free loopback port that pipes every connection to `targetPort`. */
export const startTlsFront = async (targetPort: number, host = '127.0.0.1'): Promise<TlsFront> => {
  const dir = mkdtempSync(join(tmpdir(), 'tls-front-'));
  try {
    const { pfx, passphrase, caFile } = selfSigned(dir);
    const open = new Set<Socket>();
    const server = createServer({ pfx, passphrase }, (client) => {
      const upstream = connect(targetPort, host);
      for (const socket of [client, upstream]) {
        open.add(socket);
        socket.on('close', () => open.delete(socket));
        // A reset on either side ends both; the client sees a closed socket, as from a real endpoint.
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, host, () => resolve());
    });
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    return {
      endpoint: `https://${host}:${port}`,
      caFile,
      stop: async () => {
        for (const socket of open) socket.destroy();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
};
