/**
 * A child process a test starts (`node --import tsx --import ./test/support/shifted-child.ts …`) runs
 * on the run's clock: under TEST_NOW (test/support/shifted-clock.ts) its `Date` moves by the
 * platform's offset (TEST_CLOCK_OFFSET_MS, inherited), as the platform's and the workers' do.
 * Without TEST_NOW it does nothing.
 */
import { chosenStart, shiftClock } from './shifted-clock.ts';

if (chosenStart() && process.env.TEST_CLOCK_OFFSET_MS) shiftClock(Number(process.env.TEST_CLOCK_OFFSET_MS));
