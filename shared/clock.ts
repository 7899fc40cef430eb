/**
 * The one place the service reads the time. Request code receives `now` from the middleware;
 * tests replace `clock.now` to run at fixed instants.
 */
export const clock = {
  now: (): Date => new Date(),
};
