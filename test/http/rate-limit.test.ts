import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { db } from '../../shared/db/client.ts';
import { TooManyRequestsError } from '../../shared/errors/errors.ts';
import { keyString, keyValues } from '../../shared/db/key.ts';
import { effectiveRateLimit, enforceRateLimit, type RateLimit } from '../../shared/http/rate-limit.ts';
import { rateLimitKey } from '../../shared/http/rate-limit-repository.ts';

const perIp: RateLimit = { limit: 10, windowSeconds: 60, by: 'ip' };
const perAccount: RateLimit = { limit: 60, windowSeconds: 60, by: 'account' };
const now = new Date('2026-11-23T12:00:30Z');

/** DynamoDB's limit on a partition key value. */
const MAX_PARTITION_KEY_BYTES = 2048;

describe('rateLimitKey', () => {
  it('keeps the route part and hashes the client part to a fixed 43-character SHA-256', () => {
    const key = rateLimitKey('POST /auth/login', 'ip:203.0.113.7');
    expect(key).toMatch(/^RATE#POST \/auth\/login#[A-Za-z0-9_-]{43}$/);
    expect(key).not.toContain('203.0.113.7');
    expect(rateLimitKey('POST /auth/login', 'ip:203.0.113.7')).toBe(key);
  });

  it('stays far inside the partition key limit whatever the client sends (3,000 characters, multi-byte)', () => {
    for (const client of [
      `ip:${'9'.repeat(3000)}`,
      `ip:${'é'.repeat(3000)}`,
      `acct:${'x'.repeat(100_000)}`,
    ]) {
      const key = rateLimitKey('POST /onboarding/account/create', client);
      expect(Buffer.byteLength(key)).toBeLessThan(200);
      expect(key.length).toBe(rateLimitKey('POST /onboarding/account/create', 'ip:1.2.3.4').length);
    }
  });

  it('gives different clients and different routes different counters', () => {
    const keys = new Set([
      rateLimitKey('POST /auth/login', 'ip:1.2.3.4'),
      rateLimitKey('POST /auth/login', 'ip:1.2.3.5'),
      rateLimitKey('POST /auth/login', 'acct:1.2.3.4'),
      rateLimitKey('POST /auth/refresh', 'ip:1.2.3.4'),
    ]);
    expect(keys.size).toBe(4);
  });

  it('bounds an over-long route part too', () => {
    const key = rateLimitKey(`GET /${'a'.repeat(5000)}`, 'ip:1.2.3.4');
    expect(Buffer.byteLength(key)).toBeLessThan(MAX_PARTITION_KEY_BYTES);
  });
});

describe('LOCAL_RATE_LIMITS', () => {
  it('unset or empty: the route table limits, unchanged', () => {
    expect(effectiveRateLimit(perIp, undefined)).toEqual(perIp);
    expect(effectiveRateLimit(perIp, '')).toEqual(perIp);
  });

  it('off: no per-IP limit; per-account limits still apply', () => {
    expect(effectiveRateLimit(perIp, 'off')).toBeUndefined();
    expect(effectiveRateLimit(perIp, 'OFF')).toBeUndefined();
    expect(effectiveRateLimit(perAccount, 'off')).toEqual(perAccount);
  });

  it('a number multiplies every limit (at least 1), the window unchanged', () => {
    expect(effectiveRateLimit(perIp, '100')).toEqual({ ...perIp, limit: 1000 });
    expect(effectiveRateLimit(perAccount, '2.5')).toEqual({ ...perAccount, limit: 150 });
    expect(effectiveRateLimit(perIp, '0.01')).toEqual({ ...perIp, limit: 1 });
  });

  it('anything else is a configuration error that names the setting', () => {
    for (const value of ['0', '-3', 'lots', 'Infinity'])
      expect(() => effectiveRateLimit(perIp, value)).toThrow(/LOCAL_RATE_LIMITS must be 'off' or a number/);
  });
});

describe('enforceRateLimit', () => {
  /** The counter DynamoDB would return, per key; the Key of every UpdateItem sent. */
  let counts: Map<string, number>;
  let keys: Array<Record<string, unknown>>;

  beforeEach(() => {
    vi.stubEnv('TABLE_NAME', 'rate-limit-test');
    vi.stubEnv('LOCAL_RATE_LIMITS', undefined);
    counts = new Map();
    keys = [];
    vi.spyOn(db, 'send').mockImplementation((async (command: { input: { Key: Record<string, unknown> } }) => {
      const key = command.input.Key;
      keys.push(key);
      const id = keyString(key);
      counts.set(id, (counts.get(id) ?? 0) + 1);
      return { Attributes: { count: counts.get(id) } };
    }) as never);
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  const spend = async (n: number, rule = perIp, client = 'ip:198.51.100.1') => {
    let limited = 0;
    for (let i = 0; i < n; i++) {
      await enforceRateLimit('POST /auth/login', client, rule, now).catch((error) => {
        expect(error).toBeInstanceOf(TooManyRequestsError);
        limited++;
      });
    }
    return limited;
  };

  it('counts a 3,000-character client under a bounded key', async () => {
    const headers = await enforceRateLimit('POST /auth/login', `ip:${'1'.repeat(3000)}`, perIp, now);
    expect(headers.ratelimit).toBe('limit=10, remaining=9, reset=30');
    expect(keys).toHaveLength(1);
    const [partition] = keyValues(keys[0]!);
    expect(Buffer.byteLength(partition)).toBeLessThan(MAX_PARTITION_KEY_BYTES);
    expect(partition).toBe(rateLimitKey('POST /auth/login', `ip:${'1'.repeat(3000)}`));
  });

  it('production defaults: the 11th request in a window is refused', async () => {
    expect(await spend(11)).toBe(1);
  });

  it('LOCAL_RATE_LIMITS=off: per-IP budgets are not even counted', async () => {
    vi.stubEnv('LOCAL_RATE_LIMITS', 'off');
    expect(await spend(50)).toBe(0);
    expect(keys).toHaveLength(0);
    expect(await enforceRateLimit('POST /auth/login', 'ip:198.51.100.1', perIp, now)).toEqual({});
  });

  it('LOCAL_RATE_LIMITS=off keeps per-account budgets', async () => {
    vi.stubEnv('LOCAL_RATE_LIMITS', 'off');
    expect(await spend(61, perAccount, 'acct:a1')).toBe(1);
  });

  it('LOCAL_RATE_LIMITS=N: N times the budget, and the headers say so; read on every request', async () => {
    vi.stubEnv('LOCAL_RATE_LIMITS', '3');
    expect(await spend(30)).toBe(0);
    await expect(enforceRateLimit('POST /auth/login', 'ip:198.51.100.1', perIp, now)).rejects.toMatchObject({
      headers: expect.objectContaining({ 'ratelimit-policy': '30;w=60', 'retry-after': '30' }),
    });
    vi.stubEnv('LOCAL_RATE_LIMITS', undefined);
    expect(await spend(1, perIp, 'ip:198.51.100.2')).toBe(0);
    await expect(enforceRateLimit('POST /auth/login', 'ip:198.51.100.2', perIp, now)).resolves.toMatchObject({
      'ratelimit-policy': '10;w=60',
    });
  });
});
