import { describe, expect, it } from 'vitest';
import { src, walk } from '../../scripts/metrics/import-graph.ts';

/**
 * "No production code branches on being local; stand-ins are reached through configuration"
 * (docs/architecture.md "No production branch on being local"): the code that runs on Lambda or
 * builds the stack neither reads a setting of the project's own that names the local platform nor
 * carries credentials of its own. DynamoDB Local, the IVS stand-in and the EventBridge stand-in
 * are reached through the SDK's AWS_ENDPOINT_URL_DYNAMODB, _IVS and _EVENTBRIDGE, with the
 * credentials and region of the environment (shared/db/client.ts, shared/ivs/client.ts,
 * shared/events/publish.ts).
 */
const production = () => [...walk('shared'), ...walk('functions'), ...walk('infra')];

/** Settings that only ever named the local platform, and must not come back. */
const LOCAL_SWITCHES = /\b(DYNAMODB_ENDPOINT|GOOGLE_IDP|IVS_ENDPOINT|EVENTS_ENDPOINT)\b/;
/** A credential written in code: `accessKeyId: '...'` or `secretAccessKey: "..."`. */
const HARD_CODED_CREDENTIALS = /\b(accessKeyId|secretAccessKey|sessionToken)\s*:\s*['"`]/;

const offenders = (files: string[], pattern: RegExp) => files.filter((file) => pattern.test(src(file)));

describe('no production branch on being local', () => {
  it('reads no local-only switch (DYNAMODB_ENDPOINT, GOOGLE_IDP, IVS_ENDPOINT, EVENTS_ENDPOINT) in shared/, functions/ or infra/', () => {
    expect(offenders(production(), LOCAL_SWITCHES)).toEqual([]);
  });

  it('hard-codes no credentials in shared/, functions/ or infra/', () => {
    // Every client takes the environment's credentials (docs/architecture.md); the last two with
    // dummies of their own (IVS, EventBridge) are gone.
    expect(offenders(production(), HARD_CODED_CREDENTIALS)).toEqual([]);
  });

  it('can fail: the client of the table as it was before (DYNAMODB_ENDPOINT, dummy credentials)', () => {
    const before = `const local = process.env.DYNAMODB_ENDPOINT;
      return { ...(local ? { endpoint: local, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}) };`;
    expect(LOCAL_SWITCHES.test(before)).toBe(true);
    expect(HARD_CODED_CREDENTIALS.test(before)).toBe(true);
    expect(HARD_CODED_CREDENTIALS.test('credentials: fromEnv()')).toBe(false);
  });
});
