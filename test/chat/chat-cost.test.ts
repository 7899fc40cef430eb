import { describe, expect, it } from 'vitest';
import { chatCost } from '../../bench/chat-cost.ts';

const prices = {
  checked: 'test',
  ivsChatMessagesSentPerThousand: { usd: 0.5 },
  ivsChatMessagesDeliveredPerThousand: { usd: 0.01 },
  lambdaRequestsPerMillion: { usd: 0.2 },
  lambdaArmGbSecond: { usd: 0.0000133334 },
  apiGatewayHttpPerMillion: { usd: 1 },
  dynamoReadRequestUnitsPerMillion: { usd: 0.125 },
  dynamoWriteRequestUnitsPerMillion: { usd: 0.625 },
} as never;

describe('the chat cost model (bench/chat-cost.ts, docs/cost.md "Live chat")', () => {
  it('bills every message sent, a copy per connection, and a review invocation of at least 1 ms', () => {
    const c = chatCost(0.02, prices);
    const review = 1000 * (0.2e-6 + 0.001 * 0.25 * 0.0000133334);
    expect(c.perThousandMessages[0]).toEqual({
      audience: 100,
      ivsSent: 0.5,
      ivsDelivered: 1, // 1,000 messages × 100 copies × $0.00001
      review: expect.closeTo(review, 12),
      total: expect.closeTo(1.5 + review, 12),
    });
    // A slower handler bills more: 2.4 ms is 3 ms.
    expect(chatCost(2.4, prices).perThousandMessages[0]!.review).toBeCloseTo(
      1000 * (0.2e-6 + 0.003 * 0.25 * 0.0000133334),
      12,
    );
  });

  it('a viewer hour is the room’s messages delivered to them, their own sends and one token', () => {
    const [lively, capped] = chatCost(0.02, prices).perViewerHour;
    expect(lively!.ivsDelivered).toBeCloseTo(3600 * 0.00001, 12);
    expect(capped!.ivsDelivered).toBeCloseTo(36_000 * 0.00001, 12);
    expect(lively!.token).toBeCloseTo(1e-6 + 0.2e-6 + 5 * 0.125e-6 + 0.625e-6, 15);
    expect(lively!.total).toBeCloseTo(lively!.ivsDelivered + lively!.ivsSent + lively!.token, 12);
  });
});
