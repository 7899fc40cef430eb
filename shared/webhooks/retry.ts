/**
 * The retry schedule of webhook deliveries (docs/webhooks.md, "Retries"): exponential backoff
 * with jitter over about three days, honouring the receiver's `Retry-After`. Pure: the caller
 * hands in the attempt, the delay already spent and a random number.
 *
 * The schedule counts the delays it scheduled (`elapsedSeconds` travels in the message), not the
 * wall clock, so it is the same on SQS and in the local outbox, whose delays a test may shrink.
 */
export const RETRY = {
  /** Delay after the first failed attempt. */
  baseSeconds: 10,
  factor: 2,
  /** No single wait is longer (before jitter). */
  capSeconds: 8 * 3600,
  /** Each wait is the exponential value times a uniform factor in [1 - jitter, 1 + jitter]. */
  jitter: 0.2,
  /** A receiver's Retry-After is honoured up to this. */
  retryAfterCapSeconds: 12 * 3600,
  /** Give up once the next wait would end past this much waiting since the first attempt. */
  maxElapsedSeconds: 72 * 3600,
} as const;

export type RetryPlan = { kind: 'retry'; delaySeconds: number } | { kind: 'give-up' };

/** The wait before attempt `failedAttempt + 1`, jitter from `random` (in [0, 1)). */
export const backoffSeconds = (failedAttempt: number, random: number): number => {
  const exponential = Math.min(RETRY.capSeconds, RETRY.baseSeconds * RETRY.factor ** (failedAttempt - 1));
  return Math.round(exponential * (1 - RETRY.jitter + 2 * RETRY.jitter * random));
};

/**
 * After attempt `failedAttempt` failed, having waited `elapsedSeconds` so far: retry after the
 * backoff, or after the receiver's Retry-After when that is longer; give up when that wait would
 * take the whole past `maxElapsedSeconds`.
 */
export const planRetry = (input: {
  failedAttempt: number;
  elapsedSeconds: number;
  retryAfterSeconds?: number;
  random: number;
}): RetryPlan => {
  const backoff = backoffSeconds(input.failedAttempt, input.random);
  const asked = Math.min(input.retryAfterSeconds ?? 0, RETRY.retryAfterCapSeconds);
  const delaySeconds = Math.max(backoff, asked);
  if (input.elapsedSeconds + delaySeconds > RETRY.maxElapsedSeconds) return { kind: 'give-up' };
  return { kind: 'retry', delaySeconds };
};

/** `Retry-After` (RFC 9110: delta-seconds or an HTTP date) in seconds from `now`, if usable. */
export const parseRetryAfter = (value: string | undefined, now: Date): number | undefined => {
  if (!value) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now.getTime()) / 1000));
};

/** The whole schedule with a given jitter draw: the waits until the give-up (docs, tests). */
export const scheduleOf = (random: () => number): number[] => {
  const waits: number[] = [];
  let elapsed = 0;
  for (let attempt = 1; ; attempt++) {
    const plan = planRetry({ failedAttempt: attempt, elapsedSeconds: elapsed, random: random() });
    if (plan.kind === 'give-up') return waits;
    waits.push(plan.delaySeconds);
    elapsed += plan.delaySeconds;
  }
};
