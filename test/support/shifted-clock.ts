/**
 * `TEST_NOW=<ISO instant>` runs the integration tests as if they had started at that instant
 * (docs/conventions.md "Tests at chosen instants"): test/global-setup.ts seeds the demo catalogue at
 * it and moves every `Date` of its process (the platform: projector, schedules, stand-ins) and, through
 * TEST_CLOCK_OFFSET_MS, of every integration worker (test/support/local-aws.ts, a setup file)
 * by the same offset; a unit worker's clock starts at TEST_NOW when its first file starts. The clock
 * still runs; only its origin moves. DynamoDB Local's JVM keeps the real clock. Test code only: nothing under shared/, functions/ or
 * infra/ reads either variable.
 */
const SHIFTED = Symbol.for('creator-streaming.shifted-clock');

/** Every `new Date()` and `Date.now()` of this process from now on reads `offsetMs` later than the wall clock. */
export const shiftClock = (offsetMs: number): void => {
  const global = globalThis as unknown as Record<symbol, number | undefined>;
  // A worker that runs a second file keeps the offset its first one set.
  if (global[SHIFTED] !== undefined) return;
  if (!Number.isFinite(offsetMs)) throw new Error(`Not a clock offset: ${offsetMs}`);
  global[SHIFTED] = offsetMs;
  const RealDate = Date;
  class ShiftedDate extends RealDate {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(RealDate.now() + offsetMs);
      else super(...(args as [string]));
    }
    static override now(): number {
      return RealDate.now() + offsetMs;
    }
    // Dates made by the engine itself (structuredClone, Intl, the SDK's parsers on the real Date) are still Dates.
    static override [Symbol.hasInstance](value: unknown): boolean {
      return value instanceof RealDate;
    }
  }
  globalThis.Date = ShiftedDate as DateConstructor;
};

/** The run's chosen start (TEST_NOW), or undefined for the wall clock. */
export const chosenStart = (): Date | undefined => {
  const text = process.env.TEST_NOW;
  if (!text) return undefined;
  const at = new Date(text);
  if (Number.isNaN(at.getTime()) || !/^\d{4}-\d{2}-\d{2}T/.test(text))
    throw new Error(`TEST_NOW must be an ISO date-time such as 2026-12-31T23:50:00Z, not ${text}`);
  return at;
};
