/**
 * `npx tsx scripts/local/webhooks-receiver.ts <creator id> [types...]`: a webhook receiver for
 * the running `LOCAL_WEBHOOK_CALLBACKS=private npm start` (PORT, default 3000), for demos and manual checks. It listens on
 * loopback, subscribes to the creator's events (default `creator.live creator.offline`) as that
 * creator (a local access token, signed with the local key), echoes the verification challenge
 * and verifies EVERY request with the `standardwebhooks` reference library, printing each
 * delivery. Ctrl-C deletes the subscriptions. Locally only: never point it at AWS.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { issueAccessToken } from '../../shared/identity/access-token.ts';
import { installLocalAws, useDeploymentSettings } from './aws.ts';

// The local signing key (the KMS stand-in), as npm start's functions use it.
installLocalAws();
useDeploymentSettings();

const [creatorId, ...given] = process.argv.slice(2);
if (!creatorId) {
  console.error('usage: npx tsx scripts/local/webhooks-receiver.ts <creator id> [event types...]');
  process.exit(1);
}
const types = given.length > 0 ? given : ['creator.live', 'creator.offline'];
const api = `http://127.0.0.1:${process.env.PORT ?? 3000}`;
const secrets = new Map<string, string>();
const started = Date.now();

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const path = req.url ?? '/';
    const headers = {
      'webhook-id': String(req.headers['webhook-id']),
      'webhook-timestamp': String(req.headers['webhook-timestamp']),
      'webhook-signature': String(req.headers['webhook-signature']),
    };
    const secret = secrets.get(path);
    let payload: { type: string; timestamp: string; data: Record<string, unknown> };
    try {
      if (!secret) throw new Error('unknown path');
      payload = new Webhook(secret).verify(body, headers) as typeof payload;
    } catch (error) {
      console.log(`REJECTED ${path}: ${(error as Error).message}`);
      res.writeHead(401).end();
      return;
    }
    if (payload.type === 'webhook_callback_verification') {
      console.log(`verified by standardwebhooks: challenge for ${path}, echoed`);
      res.writeHead(200, { 'content-type': 'text/plain' }).end(String(payload.data.challenge));
      return;
    }
    const at = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `+${at}s verified by standardwebhooks: ${payload.type} webhook-id=${headers['webhook-id']} timestamp=${headers['webhook-timestamp']} data=${JSON.stringify(payload.data)}`,
    );
    res.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const { token } = await issueAccessToken(creatorId, new Date());
const ids: string[] = [];
for (const type of types) {
  const path = `/${type}`;
  const answer = await fetch(`${api}/webhooks/subscriptions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      type,
      version: '1',
      condition: { creator_id: creatorId },
      callback: `${base}${path}`,
    }),
  });
  const json = (await answer.json()) as { data?: { id: string; secret: string; status: string } };
  if (answer.status !== 201 || !json.data) {
    console.error(`subscribe ${type}: ${answer.status} ${JSON.stringify(json)}`);
    process.exit(1);
  }
  secrets.set(path, json.data.secret);
  ids.push(json.data.id);
  console.log(
    `subscribed ${type} for ${creatorId}: ${json.data.id} (${json.data.status}), callback ${base}${path}`,
  );
}
const stop = async () => {
  for (const id of ids)
    await fetch(`${api}/webhooks/subscriptions/${id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
    });
  server.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
