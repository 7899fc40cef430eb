/**
 * `npm run broadcast -- <start|stop|starve|recover> <creator id>`: what an encoder connecting to
 * (or leaving) the creator's IVS ingest would make IVS do, against the running `npm start` (its
 * IVS stand-in on IVS_PORT, default PORT + 1). The channel must exist (`POST /studio/channel`).
 * `start` emits IVS's Session Created and Stream Start events into the platform, which shows the
 * creator live within a couple of seconds; `stop` ends the stream and its recording.
 */
import { standInPort } from './local/ports.ts';

const ACTIONS = ['start', 'stop', 'starve', 'recover'];
const [action, creatorId] = process.argv.slice(2);
if (!action || !ACTIONS.includes(action) || !creatorId) {
  console.error('usage: npm run broadcast -- <start|stop|starve|recover> <creator id>');
  process.exit(2);
}
const base = `http://127.0.0.1:${standInPort('ivs', process.env)}`;
try {
  const res = await fetch(`${base}/_local/broadcast/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ channel: creatorId }),
  });
  const body = await res.text();
  console.log(body);
  process.exit(res.ok ? 0 : 1);
} catch (error) {
  console.error(
    `No IVS stand-in at ${base} (${(error as Error).message}): is npm start running with the same PORT?`,
  );
  process.exit(1);
}
