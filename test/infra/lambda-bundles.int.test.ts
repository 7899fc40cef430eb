import { spawn } from 'node:child_process';
import { generateKeyPairSync, sign, verify } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { routes } from '../../functions/routes.ts';
import { handlerEntry } from '../../infra/api-function.ts';
import { bundledFilePath } from '../../infra/bundling.ts';
import { ensureNode22, NODE22_VERSION } from '../../scripts/fetch-node22.ts';
import { bundleLambdas } from '../../scripts/lambda-bundle.ts';
import { type RouteRow, routeKey } from '../../shared/routing/route.ts';
import { jwkOf } from '../../shared/identity/signing-jwk.ts';
import { commonEnvironment, type Deployment, environmentOf } from '../../shared/platform/access.ts';
import { PAYMENT_DEFAULTS } from '../../shared/payments/access.ts';
import { generateCatalog } from '../../scripts/seed/generate.ts';
import { creatorChannel } from '../../shared/realtime/messages.ts';
import { STORE_DEFAULTS } from '../../shared/stores/access.ts';
import { apiEvent } from '../support/events.ts';

/**
 * What deploys, on what it runs on: every route's handler bundled as the stack bundles it
 * (scripts/lambda-bundle.ts: the stack's esbuild options), each bundle copied alone into an empty
 * folder with no node_modules anywhere above it, imported by Node 22 (the nodejs22.x runtime,
 * fetched from the npm registry by scripts/fetch-node22.ts) and served one API Gateway HTTP API
 * v2 event. Public reads go their real path against the seeded DynamoDB Local, the JWKS route
 * serves the public JWK of its environment (computed at deploy on AWS); writes get an invalid body (422, after a rate-limited row's
 * real counter update); bearer routes get no token (401). All bundles run in one Node 22 process,
 * one after the other, each with exactly the environment the stack gives it.
 */

/** Any other AWS call is sent here and refused at once: nothing can reach a real AWS endpoint. */
const NO_AWS = 'http://127.0.0.1:9';

/** The media signing key's secret, served by the stand-in below to the functions that sign media URLs. */
const MEDIA_KEY_SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:media-key-AbCdEf';
/** The Stripe secret (made-up keys), served below: the webhook routes read it before checking a signature. */
const STRIPE_SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:bundle-test-stripe-AbCdEf';
const STRIPE_SECRET = JSON.stringify({
  secret_key: 'sk_test_bundle',
  webhook_secret: 'whsec_bundle',
  connect_webhook_secret: 'whsec_bundle_connect',
});
const mediaKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
/**
 * The KMS signing key (fresh, so the test checks the JWKS route publishes exactly its public half):
 * the stand-in below signs with its private half as KMS Sign does (ECDSA_SHA_256 over the raw
 * message, DER signature), for the functions that issue tokens on a request (the realtime token).
 */
const signingPair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const signingKey = signingPair.publicKey;

/** The deployment the functions' environments refer to: the test's table, made-up names elsewhere. */
const deployment: Deployment = {
  common: commonEnvironment({
    stage: 'dev',
    siteUrl: 'https://creators.example.com',
    cdnUrl: 'https://cdn.example.com',
  }),
  tableName: process.env.TABLE_NAME!,
  tableArn: `arn:aws:dynamodb:us-east-1:123456789012:table/${process.env.TABLE_NAME}`,
  ivsArnPrefix: 'arn:aws:ivs:us-east-1:123456789012',
  ivsRecordingConfigurationArn: 'arn:aws:ivs:us-east-1:123456789012:recording-configuration/AbCdEf',
  signingKeyId: 'bundle-test-key',
  signingKeyArn: 'arn:aws:kms:us-east-1:123456789012:key/bundle-test-key',
  // What the stack's Custom::SigningPublicKey answers (infra/handlers/signing-public-key.ts).
  signingPublicJwk: JSON.stringify(
    jwkOf(signingKey.export({ type: 'spki', format: 'der' }), 'bundle-test-key'),
  ),
  googleClientId: 'bundle-test.apps.googleusercontent.com',
  analyticsStreamName: 'bundle-test-analytics',
  analyticsStreamArn: 'arn:aws:firehose:us-east-1:123456789012:deliverystream/bundle-test-analytics',
  playbackKeySecretArn: 'arn:aws:secretsmanager:us-east-1:000000000000:secret:playback-key-AbCdEf',
  playbackAllowOrigin: 'https://creators.example.com',
  mediaKeySecretArn: MEDIA_KEY_SECRET_ARN,
  mediaKeyPairId: 'K2BUNDLETEST',
  webhooks: {
    keyId: 'bundle-test-webhook-key',
    keyArn: 'arn:aws:kms:us-east-1:123456789012:key/bundle-test-webhook-key',
    queueUrl: 'https://sqs.us-east-1.amazonaws.com/123456789012/bundle-test-deliveries',
    queueArn: 'arn:aws:sqs:us-east-1:123456789012:bundle-test-deliveries',
    deadLetterQueueUrl: 'https://sqs.us-east-1.amazonaws.com/123456789012/bundle-test-dead-letters',
    deadLetterQueueArn: 'arn:aws:sqs:us-east-1:123456789012:bundle-test-dead-letters',
  },
  recordingsBucketName: 'bundle-test-recordings',
  recordingsBucketArn: 'arn:aws:s3:::bundle-test-recordings',
  mail: {
    from: 'no-reply@mail.example.org',
    identityArn: 'arn:aws:ses:us-east-1:123456789012:identity/mail.example.org',
    configurationSetName: 'bundle-test',
    configurationSetArn: 'arn:aws:ses:us-east-1:123456789012:configuration-set/bundle-test',
  },
  payments: {
    stripeSecretArn: STRIPE_SECRET_ARN,
    ...PAYMENT_DEFAULTS,
  },
  stores: {
    appStoreSecretArn: 'arn:aws:secretsmanager:us-east-1:123456789012:secret:bundle-test-app-store-AbCdEf',
    playSecretArn: 'arn:aws:secretsmanager:us-east-1:123456789012:secret:bundle-test-play-AbCdEf',
    ...STORE_DEFAULTS,
  },
  accounts: {
    exportsBucketName: 'bundle-test-exports',
    exportsBucketArn: 'arn:aws:s3:::bundle-test-exports',
    pseudonymSecretArn: 'arn:aws:secretsmanager:us-east-1:123456789012:secret:bundle-test-pseudonym-AbCdEf',
    jobsQueueUrl: 'https://sqs.us-east-1.amazonaws.com/123456789012/bundle-test-account-jobs',
    jobsQueueArn: 'arn:aws:sqs:us-east-1:123456789012:bundle-test-account-jobs',
  },
  chat: {
    arnPrefix: 'arn:aws:ivschat:us-east-1:123456789012',
    reviewHandlerArn: 'arn:aws:lambda:us-east-1:123456789012:function:bundle-test-chat-review',
    loggingConfigurationArn: 'arn:aws:ivschat:us-east-1:123456789012:logging-configuration/AbCdEf',
  },
  realtime: {
    apiArn: 'arn:aws:appsync:us-east-1:123456789012:apis/bundletest',
    httpUrl: 'https://bundletest.appsync-api.us-east-1.amazonaws.com',
    realtimeUrl: 'wss://bundletest.appsync-realtime-api.us-east-1.amazonaws.com/event/realtime',
  },
  secondFactor: {
    keyId: 'bundle-test-second-factor-key',
    keyArn: 'arn:aws:kms:us-east-1:123456789012:key/bundle-test-second-factor-key',
    codeKeyId: 'bundle-test-one-time-code-key',
    codeKeyArn: 'arn:aws:kms:us-east-1:123456789012:key/bundle-test-one-time-code-key',
    creators: 'prompt',
  },
};

/** What the Lambda runtime sets in every function, plus where DynamoDB and the rest of AWS are. */
const runtimeEnvironment = (standIn: string): Record<string, string> => ({
  PATH: '/usr/local/bin:/usr/bin:/bin',
  LANG: 'en_US.UTF-8',
  TZ: ':UTC',
  AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
  AWS_REGION: 'us-east-1',
  AWS_DEFAULT_REGION: 'us-east-1',
  AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '256',
  AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
  AWS_ACCESS_KEY_ID: 'local',
  AWS_SECRET_ACCESS_KEY: 'local',
  AWS_SESSION_TOKEN: 'local',
  AWS_ENDPOINT_URL: NO_AWS,
  AWS_ENDPOINT_URL_KMS: standIn,
  AWS_ENDPOINT_URL_SECRETS_MANAGER: standIn,
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  AWS_ENDPOINT_URL_DYNAMODB: process.env.AWS_ENDPOINT_URL_DYNAMODB!,
});

/**
 * Secrets Manager GetSecretValue of the media key and the Stripe secret (the JSON protocol the SDK
 * speaks) and KMS Sign with the signing key; anything else is refused: no function reads the
 * signing key's public half from KMS.
 */
const awsStandIn = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk) => {
    body += chunk;
  });
  request.on('end', () => {
    response.setHeader('content-type', 'application/x-amz-json-1.1');
    if (
      request.headers['x-amz-target'] === 'secretsmanager.GetSecretValue' &&
      JSON.parse(body).SecretId === MEDIA_KEY_SECRET_ARN
    ) {
      const pem = mediaKey.export({ type: 'pkcs8', format: 'pem' }).toString();
      response.end(JSON.stringify({ ARN: MEDIA_KEY_SECRET_ARN, Name: 'media-key', SecretString: pem }));
      return;
    }
    if (
      request.headers['x-amz-target'] === 'secretsmanager.GetSecretValue' &&
      JSON.parse(body).SecretId === STRIPE_SECRET_ARN
    ) {
      response.end(JSON.stringify({ ARN: STRIPE_SECRET_ARN, Name: 'stripe', SecretString: STRIPE_SECRET }));
      return;
    }
    if (request.headers['x-amz-target'] === 'TrentService.Sign') {
      const { KeyId, Message, MessageType, SigningAlgorithm } = JSON.parse(body);
      if (
        KeyId === deployment.signingKeyId &&
        MessageType === 'RAW' &&
        SigningAlgorithm === 'ECDSA_SHA_256'
      ) {
        const signature = sign('sha256', Buffer.from(Message, 'base64'), signingPair.privateKey);
        response.end(
          JSON.stringify({
            KeyId: deployment.signingKeyArn,
            Signature: signature.toString('base64'),
            SigningAlgorithm,
          }),
        );
        return;
      }
    }
    response.statusCode = 400;
    response.end(JSON.stringify({ __type: 'AccessDeniedException', message: 'not served here' }));
  });
});

interface Result {
  name: string;
  node: string;
  statusCode?: number;
  headers?: Record<string, string>;
  body?: string;
  error?: string;
  initMs?: number;
  totalMs: number;
}

const catalog = generateCatalog({ now: new Date(inject('seededAt')), seed: 42 });
const creator = catalog.creators[0]!;
/** A creator whose channel anyone may watch (creators[0]'s requires a subscription). */
const publicCreator = catalog.creators.find((c) => !c.channel.requires_subscription)!;
const show = catalog.shows[0]!;

/** Query parameters a public read cannot do without. */
const REQUIRED_QUERY: Record<string, Record<string, string>> = {
  'GET /creators/search': { q: creator.name.split(' ')[0]! },
  'GET /shows/search': { q: show.title.split(' ')[0]! },
  'GET /onboarding/account/check-handle': { handle: 'bundle_test_handle' },
  'GET /onboarding/account/check-email': { email: 'bundle-test@example.com' },
};

/** A concrete path for a row, with ids that exist in the seeded catalogue. */
const pathOf = (row: RouteRow): { path: string; pathParameters: Record<string, string> } => {
  if (row.path === '$default') return { path: '/no/such/route', pathParameters: {} };
  const pathParameters: Record<string, string> = {};
  const path = row.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value =
      name === 'targetType'
        ? 'show'
        : name === 'name'
          ? 'swagger-ui.css'
          : row.path.startsWith('/channels/')
            ? creator.channel.channel_id
            : row.path.includes('/shows/')
              ? show.id
              : row.path.endsWith('/live/realtime')
                ? publicCreator.id
                : creator.id;
    pathParameters[name] = value;
    return value;
  });
  return { path, pathParameters };
};

/** The one request each function serves, and the statuses it may answer. */
const requestFor = (row: RouteRow) => {
  const { path, pathParameters } = pathOf(row);
  const reads = row.method === 'GET' || row.method === 'ANY';
  const event = apiEvent({
    route: routeKey(row),
    path,
    pathParameters,
    query: REQUIRED_QUERY[routeKey(row)] ?? {},
    ...(reads ? {} : { body: { bundle_test: true } }),
    headers: { 'user-agent': 'lambda-bundle-test' },
  });
  const expected =
    row.path === '$default'
      ? [404]
      : // cr_0001 is live, so it has its chat room from the start (npm start and the tests' set-up
        // make one beside each seed-live channel: scripts/local/ivs/demo-channels.ts
        // openDemoChatRooms); its channel requires a subscription, so the anonymous caller gets
        // 403 before any IVS Chat call: the bundle read the creator and the room from DynamoDB on
        // its real path. (404 'no chat' was also accepted while the room was made only by a test
        // that ran before; since the seed makes it, a 404 means the room went missing.)
        routeKey(row) === 'POST /creators/{id}/channel/chat/token'
        ? [403]
        : row.auth === 'required'
          ? [401]
          : reads
            ? [200]
            : [400, 422];
  return { event, expected };
};

const folderOf = (row: RouteRow) => row.handler.replace(/[^a-z0-9-]+/gi, '_');
const work = mkdtempSync(join(tmpdir(), 'lambda-bundles-'));
const run = join(work, 'run');
let results = new Map<string, Result>();

/** Runs the jobs in Node 22; resolves when the process exits, with its stderr tail. */
const runNode22 = (node: string, args: string[], env: Record<string, string>) =>
  new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    const child = spawn(node, args, {
      cwd: run,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr = (stderr + String(chunk)).slice(-4000);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });

beforeAll(async () => {
  const timings: Record<string, number> = {};
  let t = performance.now();
  const node = ensureNode22();
  timings.fetchNode22 = performance.now() - t;

  t = performance.now();
  const built = join(work, 'built');
  const files = await bundleLambdas(
    new Map(routes.map((row) => [folderOf(row), handlerEntry(row.handler)])),
    built,
  );
  timings.bundle = performance.now() - t;

  await new Promise<void>((resolve) => awsStandIn.listen(0, '127.0.0.1', resolve));
  const standIn = `http://127.0.0.1:${(awsStandIn.address() as AddressInfo).port}`;
  // Each bundle alone in its own empty folder: the asset's two files, and the run-time package
  // files of its row where the stack's bundling puts them (infra/bundling.ts), nothing else.
  const jobs = routes.map((row) => {
    const dir = join(run, folderOf(row));
    mkdirSync(dir, { recursive: true });
    const bundle = files.get(folderOf(row))!;
    for (const suffix of ['', '.map']) copyFileSync(`${bundle}${suffix}`, join(dir, `index.mjs${suffix}`));
    for (const file of row.files ?? []) {
      const target = join(dir, bundledFilePath(file));
      mkdirSync(dirname(target), { recursive: true });
      copyFileSync(join(import.meta.dirname, '../../node_modules', file), target);
    }
    // Exactly the environment the stack gives this function (shared/platform/access.ts).
    return { name: folderOf(row), dir, env: environmentOf(row, deployment), event: requestFor(row).event };
  });
  rmSync(built, { recursive: true, force: true });
  copyFileSync(join(import.meta.dirname, 'fixtures/lambda-runner.mjs'), join(run, 'runner.mjs'));
  writeFileSync(join(run, 'jobs.json'), JSON.stringify(jobs));

  t = performance.now();
  const exit = await runNode22(
    node,
    ['runner.mjs', 'jobs.json', 'results.json'],
    runtimeEnvironment(standIn),
  );
  timings.run = performance.now() - t;
  if (exit.code !== 0) throw new Error(`the Node 22 runner exited with ${exit.code}: ${exit.stderr}`);
  const list = JSON.parse(readFileSync(join(run, 'results.json'), 'utf8')) as Result[];
  results = new Map(list.map((r) => [r.name, r]));
  const ms = (name: string) => `${Math.round(timings[name]!)} ms`;
  console.log(
    `${list.length} Lambda bundles on Node ${list[0]?.node}: fetch ${ms('fetchNode22')}, ` +
      `bundle ${ms('bundle')}, run ${ms('run')}`,
  );
}, 300_000);

afterAll(async () => {
  await new Promise((resolve) => awsStandIn.close(resolve));
  rmSync(work, { recursive: true, force: true });
});

describe('every Lambda bundle, alone in a folder, on Node 22', () => {
  it(`runs on the pinned Node ${NODE22_VERSION}, with no node_modules above any bundle`, () => {
    expect(results.size).toBe(routes.length);
    for (const result of results.values()) expect(result.node).toBe(`v${NODE22_VERSION}`);
    for (let dir = run; dir !== dirname(dir); dir = dirname(dir))
      expect(existsSync(join(dir, 'node_modules')), dir).toBe(false);
    for (const row of routes)
      expect(readdirSync(join(run, folderOf(row))).sort()).toEqual(
        row.files ? ['index.mjs', 'index.mjs.map', 'node_modules'] : ['index.mjs', 'index.mjs.map'],
      );
  });

  it.each(routes.map((row) => [routeKey(row), row] as const))('%s loads and serves its request', (_, row) => {
    const result = results.get(folderOf(row));
    expect(result, 'no result: the runner stopped before this bundle').toBeDefined();
    expect(result!.error).toBeUndefined();
    const { expected } = requestFor(row);
    expect(expected, `status ${result!.statusCode}: ${result!.body?.slice(0, 300)}`).toContain(
      result!.statusCode,
    );
    expect(result!.headers?.['x-request-id']).toBeTruthy();
  });

  it('issues a realtime token signed by the deployed key (KMS Sign) for an open channel', () => {
    const access = JSON.parse(results.get('realtime_get-realtime-access')!.body!).data;
    expect(access.endpoint).toBe(deployment.realtime!.realtimeUrl);
    expect(access.channel).toBe(creatorChannel(publicCreator.id));
    const [header, payload, signature] = access.auth.token.split('.');
    expect(JSON.parse(Buffer.from(payload, 'base64url').toString())).toMatchObject({
      sub: 'anonymous',
      token_use: 'realtime',
      channels: expect.arrayContaining([creatorChannel(publicCreator.id)]),
    });
    const signed = Buffer.from(`${header}.${payload}`);
    const joseSignature = Buffer.from(signature, 'base64url');
    expect(verify('sha256', signed, { key: signingKey, dsaEncoding: 'ieee-p1363' }, joseSignature)).toBe(
      true,
    );
  });

  it('reads the catalogue from DynamoDB and serves the deployed signing JWK inside the bundles', () => {
    const creators = JSON.parse(results.get('creators_list-creators')!.body!);
    // The catalogue's creators, the demo creator, and any creator other tests onboarded meanwhile.
    expect(creators.meta_data.total).toBeGreaterThanOrEqual(catalog.creators.length + 1);
    expect(creators.data.creators).toHaveLength(20);
    const jwks = JSON.parse(results.get('platform_get-jwks')!.body!);
    expect(jwks.keys).toEqual([JSON.parse(deployment.signingPublicJwk)]);
    expect(jwks.keys[0]).toMatchObject({
      kty: 'EC',
      crv: 'P-256',
      x: signingKey.export({ format: 'jwk' }).x,
    });
  });
});
