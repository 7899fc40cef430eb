import { startAppSyncEventsStandIn } from '../scripts/local/appsync-events/server.ts';
import { TickAggregator } from '../shared/realtime/aggregator.ts';
import { publishEvents } from '../shared/realtime/event-api.ts';
import { TICK_SECONDS } from '../shared/realtime/messages.ts';
import { connectEvents } from '../test/support/appsync-events.ts';

/**
 * Pushed live state (docs/realtime.md): two figures.
 * - **Delay from a change to a subscriber's message.** A change waits for the end of its tick
 *   (uniform over 0-5 s), the tick's grace (0.3 s) and the tick's work, then one publish to the
 *   subscriber. The publish → `data` leg is measured here, through the AppSync Events stand-in with
 *   the back end's own SigV4 publisher and a `ws` subscriber (`samples` publishes); the end-to-end
 *   p50/p99 add the tick wait of a change at a uniformly random moment (sampled) and the grace.
 *   The tick's own work (reads) is what the browser test measures end to end.
 * - **10,000 reactions a second on one channel** for a minute, counted into the tick totals and
 *   offered to the aggregator each tick: the messages it publishes.
 */
export const runRealtimeBench = async (samples = 400) => {
  const standIn = await startAppSyncEventsStandIn({
    authorizer: async () => ({ isAuthorized: true }),
    authorizePublish: async () => true,
  });
  const saved = {
    url: process.env.REALTIME_HTTP_URL,
    id: process.env.AWS_ACCESS_KEY_ID,
    key: process.env.AWS_SECRET_ACCESS_KEY,
  };
  process.env.REALTIME_HTTP_URL = standIn.httpEndpoint;
  process.env.AWS_ACCESS_KEY_ID ??= 'bench';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
  const transport: number[] = [];
  try {
    const client = await connectEvents(standIn.realtimeEndpoint, 'bench');
    await client.subscribe('s', '/live/bench', 'bench');
    for (let i = 0; i < samples; i++) {
      const t = performance.now();
      await publishEvents('/live/bench', [{ i }]);
      await client.next((f) => f.type === 'data' && JSON.parse(String(f.event)).i === i);
      transport.push(performance.now() - t);
    }
    client.close();
  } finally {
    process.env.REALTIME_HTTP_URL = saved.url;
    if (saved.id === undefined) delete process.env.AWS_ACCESS_KEY_ID;
    if (saved.key === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
    await standIn.stop();
  }
  const pct = (values: number[], p: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
  };
  const tickMs = TICK_SECONDS * 1000;
  const endToEnd = transport.map((ms) => Math.random() * tickMs + 300 + ms);

  // 10,000 reactions a second for 60 s: one reactions message per tick.
  const aggregator = new TickAggregator();
  let messages = 0;
  const ticks = 60 / TICK_SECONDS;
  const emojis = ['🔥', '❤️', '😂', '👏', '🎉'];
  for (let tick = 0; tick < ticks; tick++) {
    const totals = new Map<string, number>();
    for (let i = 0; i < 10_000 * TICK_SECONDS; i++) {
      const emoji = emojis[i % emojis.length] as string;
      totals.set(emoji, (totals.get(emoji) ?? 0) + 1);
    }
    aggregator.offer('/live/bench', 'reactions', Object.fromEntries(totals), { fingerprint: String(tick) });
    messages += [...aggregator.flush(tick, new Date()).values()].flat().length;
  }
  const report = {
    realtime: {
      transportP50Ms: pct(transport, 50),
      transportP99Ms: pct(transport, 99),
      endToEndP50Ms: pct(endToEnd, 50),
      endToEndP99Ms: pct(endToEnd, 99),
      reactionsPerSecond: 10_000,
      ticks,
      reactionMessages: messages,
    },
  };
  const r = report.realtime;
  const markdown = [
    '',
    '## Pushed live state (AppSync Events)',
    '',
    `Publish → subscriber through the local stand-in (SigV4-signed HTTP publish, \`ws\` subscriber), ${samples} messages: p50 ${r.transportP50Ms.toFixed(1)} ms, p99 ${r.transportP99Ms.toFixed(1)} ms. A change to a subscriber's message, with the wait for its tick (${TICK_SECONDS} s, uniform) and the tick's 0.3 s grace: p50 ${(r.endToEndP50Ms / 1000).toFixed(2)} s, p99 ${(r.endToEndP99Ms / 1000).toFixed(2)} s (plus the tick's reads; test/realtime/realtime-browser.int.test.ts measures the whole path).`,
    `10,000 reactions a second on one channel for 60 s: ${messages} \`reactions\` messages (${ticks} ticks), one per tick.`,
  ];
  return { report, markdown };
};
