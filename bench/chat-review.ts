import { DEFAULT_CHAT_SETTINGS } from '../shared/chat/chat-repository.ts';
import { foldTerms, reviewMessage, type SlowModeState } from '../shared/chat/review.ts';
import { chatCost, chatCostMarkdown } from './chat-cost.ts';
import { runAsScript } from './child.ts';

/**
 * The chat review handler's warm path (docs/chat.md "Review"): the rules over cached settings,
 * which is all a warm handler does between two settings loads (every 10 s per room). Settings as
 * busy as a channel can make them: 200 blocked terms, slow mode, emote-only off; messages of every
 * kind (plain, look-alike evasion, long, emoji) from 5,000 senders. IVS waits at most 200 ms.
 * The report also carries the chat cost model at that handler time (bench/chat-cost.ts).
 * `npx tsx bench/chat-review.ts` runs this part alone.
 */
export const runChatReviewBench = (iterations = 20_000) => {
  const terms = Array.from({ length: 200 }, (_, i) => `blocked${i}term`);
  const settings = {
    ...DEFAULT_CHAT_SETTINGS,
    slow_mode_seconds: 5,
    blocked_terms: terms,
    folded: foldTerms(terms),
  };
  const messages = [
    'hello everyone, great stream tonight!',
    'ｂｌｏｃｋｅｄ７ｔｅｒｍ in full width',
    'b.l.o.c.k.e.d.1.2.t.e.r.m',
    '🎉🎉 :wave: :pog: 🎉',
    'x'.repeat(280),
    'Ѕрам with Cyrillic look-alikes and ünïcödé accents',
  ];
  const slow: SlowModeState = new Map();
  const times: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const event = {
      Content: messages[i % messages.length] as string,
      RoomArn: 'arn:aws:ivschat:us-east-1:000000000000:room/bench',
      Sender: {
        UserId: `acc_${i % 5000}`,
        Attributes: { display_name: 'v', badges: i % 7 ? '' : 'subscriber' },
      },
    };
    const t = performance.now();
    reviewMessage(event, settings, i * 10, slow);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))] as number;
  const cost = chatCost(at(50));
  const report = { chatReview: { iterations, p50Ms: at(50), p99Ms: at(99), maxMs: at(100) }, chatCost: cost };
  const markdown = [
    '',
    '## Chat message review (warm path)',
    '',
    `The review rules over cached settings (200 blocked terms, slow mode), ${iterations} messages of six kinds from 5,000 senders: p50 ${at(50).toFixed(3)} ms, p99 ${at(99).toFixed(3)} ms, max ${at(100).toFixed(3)} ms (IVS Chat waits 200 ms; the handler gives a settings load 120 ms before it answers the fallback).`,
    ...chatCostMarkdown(cost),
  ];
  return { report, markdown };
};

// Alone: the markdown; as a part of `npm run bench` (bench/child.ts): the result as JSON to `--json`.
await runAsScript(import.meta.filename, runChatReviewBench, (result) => result.markdown);
