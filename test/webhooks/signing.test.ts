import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { formatSecret, signature, signedHeaders } from '../../shared/webhooks/signing.ts';

/** Our signatures against the Standard Webhooks reference library (a peer implementation). */
describe('Standard Webhooks signatures', () => {
  const secret = formatSecret(randomBytes(32));
  const body = JSON.stringify({
    type: 'creator.live',
    timestamp: '2026-11-24T12:00:00.000Z',
    data: { a: 1 },
  });
  const now = Math.floor(Date.now() / 1000);

  it("verifies with the reference library's verify", () => {
    const headers = signedHeaders([secret], 'evt_1', now, body);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it("is byte-for-byte the reference library's own signature", () => {
    const theirs = new Webhook(secret).sign('evt_1', new Date(now * 1000), body);
    expect(signature(secret, 'evt_1', now, body)).toBe(theirs);
  });

  it('during a rotation either secret verifies (two space-separated signatures)', () => {
    const next = formatSecret(randomBytes(32));
    const headers = signedHeaders([next, secret], 'evt_2', now, body);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(() => new Webhook(secret).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(next).verify(body, headers)).not.toThrow();
  });

  it('fails verification when the body, the id or the secret differ', () => {
    const headers = signedHeaders([secret], 'evt_3', now, body);
    expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow();
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'evt_4' })).toThrow();
    expect(() => new Webhook(formatSecret(randomBytes(32))).verify(body, headers)).toThrow();
  });
});
