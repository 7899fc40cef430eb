/**
 * `npx tsx scripts/chat-demo.ts`: live chat on the running `npm start` (same PORT), as two demo
 * viewers' apps and the demo creator's studio would use it (docs/chat.md): the demo creator's
 * channel is made (with its chat room) and goes live, the creator blocks a term, both viewers get
 * tokens from `POST /creators/{id}/channel/chat/token` and chat over the messaging WebSocket as the
 * IVS Chat SDK does (the token as subprotocol), the blocked term is refused with its reason, and
 * a ban disconnects the second viewer at once and refuses them a new token. Prints each step.
 * Local only: it logs in with the demo accounts of docs/demo-data.md.
 */
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { standInPort } from './local/ports.ts';

const API = process.env.API_URL ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`;
const IVS = `http://127.0.0.1:${standInPort('ivs', process.env)}`;
const say = (line: string) => console.log(line);

const call = async (method: string, path: string, token?: string, body?: unknown) => {
  const res = await fetch(`${API}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
};

const logIn = async (email: string, password: string): Promise<string> => {
  const res = await call('POST', '/auth/login', undefined, { email, password });
  if (res.status !== 200) throw new Error(`log in ${email}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.auth_token;
};

interface Chat {
  name: string;
  frames: Array<Record<string, unknown>>;
  send(content: string): Promise<Record<string, unknown>>;
  next(match: (f: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  closed: Promise<string>;
}

/** Opens the messaging WebSocket with a token from our route, as the SDK does. */
const join = (name: string, endpoint: string, token: string): Promise<Chat> =>
  new Promise((resolve, reject) => {
    const socket = new WebSocket(endpoint, token);
    const frames: Array<Record<string, unknown>> = [];
    const waiting = new Set<() => void>();
    socket.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as Record<string, unknown>;
      frames.push(frame);
      for (const wake of waiting) wake();
    });
    const closed = new Promise<string>((done) =>
      socket.on('close', (code, reason) => done(`closed ${code} ${reason.toString()}`)),
    );
    socket.on('error', reject);
    const next = (match: (f: Record<string, unknown>) => boolean) =>
      new Promise<Record<string, unknown>>((found, fail) => {
        const check = () => {
          const frame = frames.find(match);
          if (!frame) return;
          waiting.delete(check);
          clearTimeout(timer);
          found(frame);
        };
        const timer = setTimeout(() => fail(new Error(`${name}: no such frame in 10 s`)), 10_000);
        waiting.add(check);
        check();
      });
    socket.on('open', () =>
      resolve({
        name,
        frames,
        closed,
        next,
        send: (content) => {
          const RequestId = randomUUID();
          socket.send(JSON.stringify({ Action: 'SEND_MESSAGE', RequestId, Content: content }));
          return next((f) => f.RequestId === RequestId);
        },
      }),
    );
  });

const shown = (f: Record<string, unknown>) =>
  f.Type === 'MESSAGE'
    ? `MESSAGE from ${(f.Sender as { Attributes: Record<string, string> }).Attributes.display_name}: "${f.Content}"`
    : f.Type === 'ERROR'
      ? `ERROR ${f.ErrorCode} "${f.ErrorMessage}"`
      : `EVENT ${f.EventName} ${JSON.stringify(f.Attributes)}`;

const creator = await logIn('creator@demo.stream', 'demo-password-3');
const channel = await call('POST', '/studio/channel', creator);
const creatorId = 'acc_demo_creator';
say(
  `1. creator@demo.stream: POST /studio/channel -> ${channel.status}, chat room ${channel.body.data.chat_room_arn}`,
);
const live = await fetch(`${IVS}/_local/broadcast/start`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ channel: creatorId }),
});
say(`   broadcast start (as npm run broadcast -- start ${creatorId}) -> ${live.status}`);
for (let i = 0; i < 60; i++) {
  const detail = await call('GET', `/creators/${creatorId}`);
  if (detail.body?.data?.[0]?.is_live) {
    say(`   GET /creators/${creatorId}: is_live true`);
    break;
  }
  await new Promise((r) => setTimeout(r, 500));
}
const settings = await call('PUT', '/studio/chat/settings', creator, { blocked_terms: ['spoiler'] });
say(`2. PUT /studio/chat/settings {blocked_terms:["spoiler"]} -> ${settings.status}`);

const viewers: Record<string, string> = {
  viewer: await logIn('viewer@demo.stream', 'demo-password-1'),
  viewer2: await logIn('viewer2@demo.stream', 'demo-password-2'),
};
const chats: Record<string, Chat> = {};
for (const [name, session] of Object.entries(viewers)) {
  const t = await call('POST', `/creators/${creatorId}/channel/chat/token`, session);
  say(
    `3. ${name}: POST /creators/${creatorId}/channel/chat/token -> ${t.status}, capabilities ${JSON.stringify(t.body.data.capabilities)}, endpoint ${t.body.data.endpoint}`,
  );
  chats[name] = await join(name, t.body.data.endpoint, t.body.data.token);
  say(`   ${name}: connected to the room`);
}
const [one, two] = [chats.viewer!, chats.viewer2!];
say(`4. viewer sends "hello from viewer" -> ${shown(await one.send('hello from viewer'))}`);
say(`   viewer2 receives ${shown(await two.next((f) => f.Content === 'hello from viewer'))}`);
say(`   viewer2 sends "hi viewer!" -> ${shown(await two.send('hi viewer!'))}`);
say(`   viewer receives ${shown(await one.next((f) => f.Content === 'hi viewer!'))}`);
for (let attempt = 1; attempt <= 3; attempt++) {
  const answer = await two.send('the sp0iler: it was the butler');
  say(`5. viewer2 sends "the sp0iler: it was the butler" -> ${shown(answer)}`);
  if (answer.Type === 'ERROR') break;
  say('   (delivered: the room fell back to ALLOW, docs/chat.md "Fallback"; again)');
}
const ban = await call('POST', '/studio/chat/bans', creator, {
  account_id: 'acc_demo_viewer2',
  duration_seconds: null,
  reason: 'spam',
});
say(
  `6. creator: POST /studio/chat/bans {account_id:"acc_demo_viewer2", duration_seconds:null, reason:"spam"} -> ${ban.status}`,
);
say(`   viewer2's socket: ${await two.closed}`);
say(`   viewer receives ${shown(await one.next((f) => f.EventName === 'aws:DISCONNECT_USER'))}`);
say(`   viewer receives ${shown(await one.next((f) => f.EventName === 'app:DELETE_BY_USER'))}`);
const again = await call('POST', `/creators/${creatorId}/channel/chat/token`, viewers.viewer2);
say(
  `7. viewer2: POST /creators/${creatorId}/channel/chat/token -> ${again.status} ${JSON.stringify(again.body)}`,
);
say(`   viewer sends "still here" -> ${shown(await one.send('still here'))}`);
process.exit(0);
