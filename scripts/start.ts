/**
 * `npm start`: the whole platform on this machine. DynamoDB Local (started here), the table,
 * seeded demo data, every route of the route table on http://127.0.0.1:${PORT:-3000}, analytics
 * written as NDJSON under .local/analytics. Options: --scale N (10x demo data for benchmarks).
 */
import { parseArgs } from 'node:util';
import { standInPort } from './local/ports.ts';
import { startLocalPlatform } from './local/platform.ts';
import { applyStartSettings } from './local/start-settings.ts';

const { values } = parseArgs({
  options: { scale: { type: 'string', default: '1' }, seed: { type: 'string', default: '42' } },
});
const started = Date.now();
const port = Number(process.env.PORT ?? 3000);
const ivsPort = standInPort('ivs', process.env);
applyStartSettings(process.env, ivsPort);
const platform = await startLocalPlatform({
  scale: Number(values.scale),
  seed: Number(values.seed),
  // The IVS stand-in next to the API, where `npm run broadcast` finds it (scripts/broadcast.ts).
  ivsPort,
  // The Stripe stand-in, where `npm run pay` finds it (scripts/pay.ts, docs/local-stripe.md).
  stripePort: standInPort('stripe', process.env),
  // The IVS Chat stand-in (docs/local-ivschat.md), at a port the web app's developers can name.
  ivschatPort: standInPort('ivschat', process.env),
  // The AppSync Events stand-in (docs/local-appsync-events.md): live state pushed as it changes (5 s ticks), and once a minute.
  appsyncEventsPort: standInPort('appsyncEvents', process.env),
  // The App Store stand-in, where `npm run pay -- apple` finds it (docs/payments.md, "App stores: locally").
  appStorePort: standInPort('appStore', process.env),
  playPort: standInPort('play', process.env),
});
const { startLocalApi } = await import('./local/server.ts');
// Webhooks: the fan-out on the local bus, the delivery queue and the sender (docs/webhooks.md).
const webhooks = await (await import('./local/webhooks.ts')).startLocalWebhooks();
// Account jobs: exports built, deleted accounts purged 15 minutes after the request (docs/accounts.md).
await (await import('./local/accounts.ts')).startLocalAccountJobs();
const { routes } = await import('../functions/routes.ts');
const { server, url } = await startLocalApi(port, process.env.HOST ?? '127.0.0.1');
// Stripe delivers to this API's webhook routes (registered as in Stripe's dashboard).
await platform.stripe.connectWebhooks(url);
// The App Store sends its notifications to this API (App Store Connect's notification URL).
platform.appStore.connect(`${url}/billing/apple/notifications`);
// Pub/Sub pushes Google Play's notifications to this API (the push subscription's endpoint).
platform.play.connect(`${url}/billing/google/notifications`);

console.log(`
Creator streaming platform running at ${url}  (ready in ${((Date.now() - started) / 1000).toFixed(1)} s)
  ${routes.length} routes, ${platform.items} items seeded into DynamoDB at ${platform.endpoint}
  IVS stand-in (channels, playback, broadcasts) at ${platform.ivsEndpoint}: npm run broadcast -- start <creator id>
  Webhooks: POST ${url}/webhooks/subscriptions delivers signed events (${process.env.LOCAL_WEBHOOK_CALLBACKS === 'private' ? 'loopback and private callbacks allowed: LOCAL_WEBHOOK_CALLBACKS=private' : 'public https callbacks only; LOCAL_WEBHOOK_CALLBACKS=private npm start for loopback receivers'}, docs/webhooks.md)
  Stripe stand-in (checkout pages, subscriptions, Connect, signed webhooks) at ${platform.stripe.endpoint}: npm run pay -- complete <checkout id>
  App Store stand-in (signed V2 notifications) at ${platform.appStore.endpoint}: npm run pay -- apple SUBSCRIBED <account id> <creator id>
  Google Play stand-in (Play Developer API, Pub/Sub pushes) at ${platform.play.endpoint}: npm run pay -- google PURCHASED <account id> <creator id>
  IVS Chat stand-in (rooms, chat tokens, review handler) at ${platform.ivschat.endpoint}, messaging WebSocket at ${platform.ivschat.messagingEndpoint} (docs/local-ivschat.md)
  AppSync Events stand-in (live state pushed as it changes, 5 s ticks, and once a minute) at ${platform.appsyncEvents.realtimeEndpoint}: curl ${url}/creators/cr_0004/channel/live/realtime (cr_0001 needs the demo viewer's bearer; docs/realtime.md)
  Media CDN stand-in (recordings, DVR; signed URLs checked) at ${process.env.CDN_URL}
  Mail (SES v2 stand-in at ${platform.ses.endpoint}): codes (email verification, password reset, email change) land in ${(await import('./local/ses.ts')).mailboxDir()}/<address, @ as %40>.ndjson
  Account exports (S3 stand-in, presigned URLs checked) at ${process.env.AWS_ENDPOINT_URL_S3}: POST ${url}/me/export
  Domain events (EventBridge stand-in, docs/events.md): curl ${platform.eventsEndpoint}/_local/events

Try:
  curl '${url}/creators?category=comedy&limit=3'
  curl '${url}/creators/live'
  curl '${url}/creators/search?q=maya'
  curl '${url}/home'
  curl '${url}/shows?sort=trending'
  curl '${url}/creators/cr_0001/channel/schedule?timezone=America/New_York'
  API reference: ${url}/docs   (demo accounts: docs/demo-data.md)
Ctrl-C stops the server and DynamoDB Local.
`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  server.close();
  server.closeAllConnections();
  webhooks.stop();
  await platform.stop();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
