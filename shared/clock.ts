/**
 * The one place the service reads the time of day. Request code receives `now` from the
 * middleware; jobs, repositories' defaults and stream consumers call `clock.now()`; tests replace
 * `clock.now` to run at fixed instants. `Date.now()` stays only where a duration or a wait is
 * measured (an HTTP call's time, a sleep to the next second, a cached token's life, log stamps)
 * and in the input schemas' date windows, which run before the middleware's `now` exists.
 */
export const clock = {
  now: (): Date => new Date(),
};
