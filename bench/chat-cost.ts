import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Live chat in the cost model (issue 39, docs/cost.md "Live chat", docs/chat.md "Cost"): what
 * 1,000 chat messages and one viewer hour of chat cost at list prices (bench/prices.json). IVS
 * Chat bills every message sent and every copy it delivers (one per connection in the room, the
 * sender's own included); rooms and connections are free. Beside it, ours: the review handler's
 * Lambda invocation per message (billed duration from bench/chat-review.ts, rounded up to 1 ms,
 * at the function's 256 MB) and one token request per chat session (API Gateway, Lambda, and
 * the DynamoDB work of the token route: creator, settings, account, follow, subscription,
 * moderator, six eventually consistent GetItems at 0.5 RRU, the ban and the token's session, two
 * strongly consistent ones at 1 RRU, and the record of the room the token is for, one PutItem
 * under 1 KB: 1 WRU).
 *
 * Pure arithmetic over the prices and the measured handler time: `npm run bench` (and --fast)
 * prints it after the chat review part.
 */

interface Price {
  usd: number;
}
type Prices = Record<string, Price>;

const readPrices = (): Prices =>
  JSON.parse(readFileSync(join(import.meta.dirname, 'prices.json'), 'utf8')) as Prices;

const price = (prices: Prices, name: string): number => {
  const p = prices[name];
  if (!p) throw new Error(`bench/prices.json has no ${name}`);
  return p.usd;
};

/** What the model assumes beside the prices (docs/cost.md "Live chat" says why). */
export const CHAT_ASSUMPTIONS = {
  /** The review handler's memory (functions/workers.ts chatReviewRow: the default). */
  reviewMemoryMb: 256,
  /** DynamoDB reads of one token request (six eventually consistent GetItems, two strongly consistent). */
  tokenReadUnits: 6 * 0.5 + 2 * 1,
  /** DynamoDB writes of one token request (the token record, shared/chat/chat-repository.ts). */
  tokenWriteUnits: 1,
  /** One token per session (shared/chat/policy.ts CHAT_SESSION_MINUTES = 60). */
  tokensPerViewerHour: 1,
  /** Messages a chatting viewer sends in an hour. */
  sentPerViewerHour: 6,
  /** Rooms' activity: a lively room (1 message a second) and one at IVS's default cap (10). */
  roomMessagesPerSecond: [1, 10],
  /** Connections in the room (each gets a copy of every message). */
  audiences: [100, 1000],
} as const;

export interface ChatCost {
  pricesChecked: string;
  /** Dollars per 1,000 messages sent into a room of `audience` connections. */
  perThousandMessages: Array<{
    audience: number;
    ivsSent: number;
    ivsDelivered: number;
    review: number;
    total: number;
  }>;
  /** Dollars per viewer hour in a room with `roomMessagesPerSecond`. */
  perViewerHour: Array<{
    roomMessagesPerSecond: number;
    ivsDelivered: number;
    ivsSent: number;
    token: number;
    total: number;
  }>;
}

/** The model: `reviewMs` is the handler's measured time per message (bench/chat-review.ts p50). */
export const chatCost = (reviewMs: number, prices: Prices = readPrices()): ChatCost => {
  const a = CHAT_ASSUMPTIONS;
  const sent = price(prices, 'ivsChatMessagesSentPerThousand') / 1000;
  const delivered = price(prices, 'ivsChatMessagesDeliveredPerThousand') / 1000;
  const lambdaRequest = price(prices, 'lambdaRequestsPerMillion') / 1e6;
  const gbSecond = price(prices, 'lambdaArmGbSecond');
  const apiRequest = price(prices, 'apiGatewayHttpPerMillion') / 1e6;
  const readUnit = price(prices, 'dynamoReadRequestUnitsPerMillion') / 1e6;
  const writeUnit = price(prices, 'dynamoWriteRequestUnitsPerMillion') / 1e6;
  const billedSeconds = Math.max(1, Math.ceil(reviewMs)) / 1000;
  const review = lambdaRequest + billedSeconds * (a.reviewMemoryMb / 1024) * gbSecond;
  // The token route's own duration is left out (a few ms once a viewer hour: under $0.000001).
  const token = apiRequest + lambdaRequest + a.tokenReadUnits * readUnit + a.tokenWriteUnits * writeUnit;
  return {
    pricesChecked: String((prices as unknown as { checked?: string }).checked ?? ''),
    perThousandMessages: a.audiences.map((audience) => {
      const row = {
        audience,
        ivsSent: 1000 * sent,
        ivsDelivered: 1000 * audience * delivered,
        review: 1000 * review,
      };
      return { ...row, total: row.ivsSent + row.ivsDelivered + row.review };
    }),
    perViewerHour: a.roomMessagesPerSecond.map((perSecond) => {
      const row = {
        roomMessagesPerSecond: perSecond,
        ivsDelivered: perSecond * 3600 * delivered,
        ivsSent: a.sentPerViewerHour * (sent + review),
        token: a.tokensPerViewerHour * token,
      };
      return { ...row, total: row.ivsDelivered + row.ivsSent + row.token };
    }),
  };
};

const usd = (n: number) => (n >= 0.01 ? n.toFixed(3) : n.toPrecision(2));

/** The report's section. */
export const chatCostMarkdown = (c: ChatCost): string[] => [
  '',
  '## Live chat cost (IVS Chat list prices, bench/chat-cost.ts)',
  '',
  `AWS prices of bench/prices.json (checked ${c.pricesChecked}; IVS Chat's from a 2022 quotation, see their note). IVS Chat bills each message sent and each copy delivered (every connection in the room, the sender's included); the review handler is one Lambda invocation per message; a viewer asks for one token per hour-long session.`,
  '',
  '| per 1,000 messages, room of | IVS sent $ | IVS delivered $ | review handler $ | total $ |',
  '|---|---|---|---|---|',
  ...c.perThousandMessages.map(
    (r) =>
      `| ${r.audience} connections | ${usd(r.ivsSent)} | ${usd(r.ivsDelivered)} | ${usd(r.review)} | ${usd(r.total)} |`,
  ),
  '',
  `| per viewer hour, room at | IVS delivered $ | own ${CHAT_ASSUMPTIONS.sentPerViewerHour} messages sent (IVS + review) $ | token request $ | total $ |`,
  '|---|---|---|---|---|',
  ...c.perViewerHour.map(
    (r) =>
      `| ${r.roomMessagesPerSecond} message(s)/s | ${usd(r.ivsDelivered)} | ${usd(r.ivsSent)} | ${usd(r.token)} | ${usd(r.total)} |`,
  ),
];
