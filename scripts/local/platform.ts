import { createPublicKey } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { WorkerRow } from '../../shared/routing/function-row.ts';
import { type DynamoDbLocal, freePort, startDynamoDbLocal } from './dynamodb-local.ts';
import { useDynamoDbLocal } from './local-table.ts';

/**
 * Brings up the local data plane: DynamoDB Local (unless AWS_ENDPOINT_URL_DYNAMODB names another
 * endpoint), the table, and the seeded demo catalogue. Used by `npm start` and the test setup.
 */
export interface LocalPlatform {
  endpoint: string;
  seededAt: Date;
  items: number;
  /** The IVS stand-in: control plane, playback origin and broadcast control (docs/local-ivs.md). */
  ivsEndpoint: string;
  /**
   * Resolves once the projector has handled every change written before the call, and the event
   * publisher has published its events and the local bus delivered them (docs/events.md).
   */
  drain(): Promise<void>;
  /** The EventBridge stand-in the event publisher puts on (scripts/local/event-bus.ts). */
  eventsEndpoint: string;
  /**
   * The Stripe stand-in (scripts/local/stripe, docs/local-stripe.md), already in STRIPE_API_URL
   * and the Stripe secret; `connectWebhooks(apiUrl)` registers that API's webhook routes with it.
   */
  stripe: import('./stripe/server.ts').StripeStandIn & {
    connectWebhooks(apiUrl: string): Promise<import('./stripe/wiring.ts').StripeSecret>;
  };
  /**
   * The App Store stand-in (scripts/local/appstore, docs/payments.md "App stores: locally"): its
   * test chain's root is in the App Store secret; `connect(url)` names where it sends notifications.
   */
  appStore: import('./appstore/server.ts').AppStoreStandIn;
  /** The Google Play stand-in (scripts/local/play): Play Developer API, OIDC keys, Pub/Sub pushes to `connect(url)`. */
  play: import('./play/server.ts').PlayStandIn;
  /** The SES v2 stand-in the mailer sends through; it writes each message to the dev mailbox (scripts/local/ses.ts). */
  ses: import('./ses.ts').SesStandIn;
  /**
   * The Amazon IVS Chat stand-in (scripts/local/ivschat, docs/local-ivschat.md): its control plane
   * in AWS_ENDPOINT_URL_IVSCHAT, its messaging WebSocket in IVSCHAT_MESSAGING_ENDPOINT.
   */
  ivschat: import('./ivschat/server.ts').IvsChatStandIn;
  /**
   * The AWS AppSync Events stand-in (scripts/local/appsync-events, docs/local-appsync-events.md):
   * publish with IAM, connect and subscribe through the realtime authoriser; the aggregator's
   * ticks (functions/realtime/publish-ticks.ts) run every 5 s. `tick()` runs one now.
   */
  appsyncEvents: import('./appsync-events/server.ts').AppSyncEventsStandIn & { tick(): Promise<unknown> };
  stop(): Promise<void>;
}

/**
 * The projector as Lambda runs it on AWS: the same handler, fed by the local stand-in for the
 * event source mapping from the table's stream (from now on: the seed loader wrote its views
 * itself), each batch run as the projector function (its environment and IAM policy).
 */
const startProjector = async (table: string) => {
  const { installLocalAws, functionContext, runAsFunction } = await import('./aws.ts');
  const { startTableStream } = await import('./table-stream.ts');
  const { projectorRow } = await import('../../functions/workers.ts');
  const { handler } = await import('../../functions/projector/project-changes.ts');
  installLocalAws();
  const context = functionContext(projectorRow);
  // The scheduled functions, as EventBridge Scheduler runs them on AWS (infra/projector.ts,
  // infra/payments.ts): the hourly recompute of the time windows, the audiences every minute
  // (`publishAudiences` runs it once more: at start, once the seed's channels are live, so they
  // show what the live counters say from the first request), and the app-store reconcile against
  // the stores' stand-ins every 6 hours.
  const { recomputeRow, audienceRow } = await import('../../functions/workers.ts');
  const { storeReconcileRow } = await import('../../functions/payments/workers.ts');
  const { STORE_RECONCILE } = await import('../../shared/stores/reconcile-window.ts');
  const { handler: recompute } = await import('../../functions/projector/recompute-windows.ts');
  const { handler: publishAudiences } = await import('../../functions/projector/publish-audiences.ts');
  const { handler: reconcileStores } = await import('../../functions/billing/reconcile-stores.ts');
  const scheduled = (row: WorkerRow, run: () => Promise<unknown>) => {
    const scheduledContext = functionContext(row);
    return () =>
      runAsFunction(scheduledContext, run).catch((error: Error) =>
        console.error(`${row.handler} failed: ${error.name}: ${error.message}`),
      );
  };
  const audiences = scheduled(audienceRow, publishAudiences);
  const timers = [
    setInterval(scheduled(recomputeRow, recompute), 3_600_000),
    setInterval(audiences, 60_000),
    setInterval(scheduled(storeReconcileRow, reconcileStores), STORE_RECONCILE.everyHours * 3_600_000),
  ];
  for (const timer of timers) timer.unref();
  const stream = await startTableStream({
    tableName: table,
    handler: (event) => runAsFunction(context, () => handler(event)),
    startingPosition: 'LATEST',
    maxRetries: 5,
  });
  return {
    drain: () => stream.drain(),
    publishAudiences: audiences,
    stop: async () => {
      for (const timer of timers) clearInterval(timer);
      await stream.stop();
    },
  };
};

/**
 * The IVS stand-in (scripts/local/ivs, docs/local-ivs.md): the control plane and the playback
 * origin on one port, the stack's recording configuration made in it, and the broadcaster, whose
 * EventBridge documents go to the IVS event function (run as that function) as the rule would
 * send them. The media CDN stand-in (scripts/local/media-cdn.ts) answers under `/cdn/` on the
 * same port. Its port: `ivsPort` (0: any). Sets, before any function context is derived, the SDK's
 * AWS_ENDPOINT_URL_IVS (every IVS client's endpoint: the functions' through their environment,
 * scripts/local/aws.ts), IVS_ENDPOINT (the stand-in's base URL for local tooling and tests:
 * `/_local/...`, the player page; no function reads it) and IVS_RECORDING_CONFIGURATION_ARN.
 */
const startIvs = async (ivsPort: number) => {
  const { startIvsStandIn } = await import('./ivs/api.ts');
  const { createBroadcaster } = await import('./ivs/broadcaster.ts');
  const { createBroadcastControl } = await import('./ivs/control.ts');
  const { serveMediaCdn } = await import('./media-cdn.ts');
  const { servePlayerPage } = await import('./player-page.ts');
  const { broadcastClock } = await import('./ivs/demo-channels.ts');
  let control: ReturnType<typeof createBroadcastControl> | undefined;
  const ivs = await startIvsStandIn({
    port: ivsPort,
    extra: async (req, res) =>
      servePlayerPage(req, res) || (await serveMediaCdn(req, res)) || ((await control?.(req, res)) ?? false),
  });
  process.env.IVS_ENDPOINT = ivs.endpoint;
  process.env.AWS_ENDPOINT_URL_IVS = ivs.endpoint;
  const { IvsClient, CreateRecordingConfigurationCommand, ImportPlaybackKeyPairCommand } = await import(
    '@aws-sdk/client-ivs'
  );
  const { LOCAL_RECORDINGS_BUCKET, recordingsRoot } = await import('./aws.ts');
  const { localPlaybackKey } = await import('./local-key.ts');
  // The local region and dummy credentials are already in the environment (useDynamoDbLocal).
  const admin = new IvsClient({});
  const recording = await admin.send(
    new CreateRecordingConfigurationCommand({
      name: 'recordings',
      destinationConfiguration: { s3: { bucketName: LOCAL_RECORDINGS_BUCKET } },
      thumbnailConfiguration: {
        recordingMode: 'INTERVAL',
        targetIntervalSeconds: 60,
        storage: ['SEQUENTIAL', 'LATEST'],
      },
    }),
  );
  process.env.IVS_RECORDING_CONFIGURATION_ARN = recording.recordingConfiguration?.arn;
  // The playback key pair, as the stack's PlaybackKeys resource imports it (its private half is
  // what the Secrets Manager stand-in serves the signers).
  await admin.send(
    new ImportPlaybackKeyPairCommand({
      name: 'local',
      publicKeyMaterial: createPublicKey(localPlaybackKey().privateKey)
        .export({ format: 'pem', type: 'spki' })
        .toString(),
    }),
  );
  return {
    ivs,
    recordingConfigurationArn: recording.recordingConfiguration?.arn ?? '',
    /** Connects the broadcaster's events to `sink` (once the functions can run). */
    connect: (sink: (event: unknown) => Promise<unknown>) => {
      const connected = createBroadcaster({
        state: ivs.state,
        pattern: ivs.pattern,
        sink: async (event) => {
          await sink(event);
        },
        recordingsRoot: recordingsRoot(),
        // The wall clock, but for the demo channels' Stream Starts, stamped when the seed says.
        now: broadcastClock,
      });
      control = createBroadcastControl(ivs.state, () => connected);
      return connected;
    },
  };
};

/**
 * The Stripe stand-in on `port` (0: any), with the functions pointed at it (STRIPE_API_URL and the
 * Stripe secret; docs/local-stripe.md), before any function context is derived.
 */
const startStripe = async (port: number) => {
  const { startStripeStandIn } = await import('./stripe/server.ts');
  const { connectStripeWebhooks, useStripeStandIn } = await import('./stripe/wiring.ts');
  const standIn = await startStripeStandIn({ port });
  useStripeStandIn(standIn);
  return Object.assign(standIn, {
    connectWebhooks: (apiUrl: string) => connectStripeWebhooks(standIn, apiUrl),
  });
};

/**
 * The App Store stand-in on `port` (0: any): its root certificate and API key in the App Store
 * secret (the host's LOCAL_APP_STORE_SECRET, as an operator puts Apple's in the stack's secret) and its
 * App Store Server API in APP_STORE_API_URL, before any function context is derived. It finds an
 * account's app_account_token as `GET /me` makes it (shared/identity/account-repository.ts).
 */
const startAppStore = async (port: number) => {
  const { startAppStoreStandIn, useAppStoreStandIn } = await import('./appstore/server.ts');
  const { STORE_DEFAULTS } = await import('../../shared/stores/access.ts');
  const standIn = await startAppStoreStandIn({
    port,
    app: { bundleId: STORE_DEFAULTS.appleBundleId, environment: STORE_DEFAULTS.appleEnvironment },
    productPrefix: STORE_DEFAULTS.productPrefix,
    appTokenOf,
  });
  useAppStoreStandIn(standIn);
  return standIn;
};

/** The account's app_account_token, made as `GET /me` makes it (what the stores' stand-ins sign for). */
const appTokenOf = async (accountId: string) => {
  const { ensureAppAccountToken, getAccount } = await import('../../shared/identity/account-repository.ts');
  const account = await getAccount(accountId);
  return account ? (await ensureAppAccountToken(account)).app_account_token : undefined;
};

/**
 * The Google Play stand-in on `port` (0: any): PLAY_API_URL, PLAY_PUSH_JWKS_URL and its service
 * account in the Play secret (LOCAL_PLAY_SECRET), before any function context is derived.
 */
const startPlay = async (port: number) => {
  const { startPlayStandIn, usePlayStandIn } = await import('./play/server.ts');
  const { STORE_DEFAULTS } = await import('../../shared/stores/access.ts');
  const standIn = await startPlayStandIn({
    port,
    packageName: STORE_DEFAULTS.playPackageName,
    productPrefix: STORE_DEFAULTS.productPrefix,
    pushAudience: STORE_DEFAULTS.playPushAudience,
    pushServiceAccount: STORE_DEFAULTS.playPushServiceAccount,
    appTokenOf,
  });
  usePlayStandIn(standIn);
  return standIn;
};

/**
 * The IVS Chat stand-in on `port` (0: any): the SDK reaches its control plane through
 * AWS_ENDPOINT_URL_IVSCHAT (passed to every function, scripts/local/aws.ts); rooms' message review
 * handlers are invoked through the local Lambda service (scripts/local/lambda.ts).
 * IVSCHAT_MESSAGING_ENDPOINT names its WebSocket, where IVS has wss://edge.ivschat.<region>.amazonaws.com.
 */
const startIvsChat = async (port: number) => {
  const { startIvsChatStandIn } = await import('./ivschat/server.ts');
  const { invokeLocalFunction } = await import('./lambda.ts');
  const { LOCAL_CHAT } = await import('./aws.ts');
  const standIn = await startIvsChatStandIn({ port, invoke: invokeLocalFunction });
  // The deployment's logging configuration, which every room names (the stack's ChatLogs makes it on AWS).
  const at = new Date();
  standIn.state.loggingConfigurations.set(LOCAL_CHAT.loggingConfigurationArn, {
    arn: LOCAL_CHAT.loggingConfigurationArn,
    id: LOCAL_CHAT.loggingConfigurationArn.split('/').at(-1) ?? 'local',
    name: 'creator-streaming-local-chat-logs',
    createTime: at,
    updateTime: at,
    destinationConfiguration: { s3: { bucketName: 'creator-streaming-local-chat-logs' } },
    tags: {},
  });
  process.env.AWS_ENDPOINT_URL_IVSCHAT = standIn.endpoint;
  process.env.IVSCHAT_MESSAGING_ENDPOINT = standIn.messagingEndpoint;
  return standIn;
};

/**
 * The AppSync Events stand-in on `port` (0: any), its endpoints in the local deployment (the host's
 * LOCAL_APPSYNC_EVENTS_HTTP_URL and ..._REALTIME_URL: scripts/local/aws.ts) before any function
 * context is derived. Publishes are authorised by the signing function's policy
 * (`authorizeLocalCall`); connections and subscriptions by the realtime authoriser, run as its
 * function as AppSync invokes it. `startTicks` runs the aggregator's ticks every 5 s as the tick
 * function (EventBridge Scheduler runs it each minute for 12 ticks on AWS: infra/realtime.ts).
 */
const startAppSyncEvents = async (port: number) => {
  const { startAppSyncEventsStandIn } = await import('./appsync-events/server.ts');
  const { authorizeLocalCall, functionContext, runAsFunction } = await import('./aws.ts');
  const { realtimeAuthorizerRow, realtimeTickRow } = await import('../../functions/realtime/workers.ts');
  const { tickOf, tickStartMs } = await import('../../shared/realtime/messages.ts');
  const standIn = await startAppSyncEventsStandIn({
    port,
    authorizePublish: authorizeLocalCall,
    authorizer: async (event) => {
      const { handler } = await import('../../functions/realtime/authorize-subscriber.ts');
      return runAsFunction(functionContext(realtimeAuthorizerRow), () => handler(event));
    },
  });
  process.env.LOCAL_APPSYNC_EVENTS_HTTP_URL = standIn.httpEndpoint;
  process.env.LOCAL_APPSYNC_EVENTS_REALTIME_URL = standIn.realtimeEndpoint;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  const stopStandIn = standIn.stop;
  const tick = async () => {
    const { handler } = await import('../../functions/realtime/publish-ticks.ts');
    return runAsFunction(functionContext(realtimeTickRow), () => handler({ ticks: 1 })).catch(
      (error: Error) => console.error(`realtime/publish-ticks failed: ${error.name}: ${error.message}`),
    );
  };
  return Object.assign(standIn, {
    tick,
    startTicks: () => {
      // Each tick just after its boundary, as the function's loop does on AWS.
      const next = () => {
        const wait = tickStartMs(tickOf(new Date()) + 1) + 300 - Date.now();
        timer = setTimeout(
          () => {
            running = tick().finally(() => {
              running = undefined;
              if (timer) next();
            });
          },
          Math.max(wait, 0),
        );
        timer.unref();
      };
      next();
    },
    stop: async () => {
      clearTimeout(timer);
      timer = undefined;
      await running;
      await stopStandIn();
    },
  });
};

export const startLocalPlatform = async (
  options: {
    now?: Date;
    seed?: number;
    scale?: number;
    ivsPort?: number;
    stripePort?: number;
    ivschatPort?: number;
    appsyncEventsPort?: number;
    appStorePort?: number;
    playPort?: number;
  } = {},
): Promise<LocalPlatform> => {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  process.env.TABLE_NAME ??= 'creator-streaming-local';
  // DynamoDB Local (a JVM, ~2 s to boot) starts while the catalogue is generated: its port is
  // chosen first, so the shared client can be configured now.
  // The SDK finds it through its own endpoint settings (DynamoDB's and its Streams API's), in this
  // process and in every handler's environment (scripts/local/aws.ts), with the local region and
  // dummy credentials, as each handler has them.
  let starting: Promise<DynamoDbLocal> | undefined;
  let endpoint = process.env.AWS_ENDPOINT_URL_DYNAMODB;
  if (!endpoint) {
    const port = process.env.DYNAMODB_PORT ? Number(process.env.DYNAMODB_PORT) : await freePort();
    endpoint = `http://127.0.0.1:${port}`;
    starting = startDynamoDbLocal({ port });
    starting.catch(() => {}); // awaited below; this only keeps an early failure from being "unhandled"
  }
  useDynamoDbLocal(endpoint);
  let projector: Awaited<ReturnType<typeof startProjector>> | undefined;
  let events: Awaited<ReturnType<typeof import('./event-bus.ts').startLocalEventPublisher>> | undefined;
  const live = await startIvs(options.ivsPort ?? 0);
  const stripe = await startStripe(options.stripePort ?? 0);
  const ivschat = await startIvsChat(options.ivschatPort ?? 0);
  const appsyncEvents = await startAppSyncEvents(options.appsyncEventsPort ?? 0);
  const appStore = await startAppStore(options.appStorePort ?? 0);
  const play = await startPlay(options.playPort ?? 0);
  // Google sign-in verifies tokens of the local identity provider (scripts/local/local-idp.ts):
  // its key set is served as Google serves its own, named by GOOGLE_JWKS_URI (a URL setting).
  const googleIdp = await (await import('./google-idp.ts')).startGoogleIdpStandIn();
  process.env.GOOGLE_JWKS_URI = googleIdp.jwksUrl;
  // SES v2: the SDK reaches the stand-in through its endpoint setting, which every function's
  // environment carries locally (scripts/local/aws.ts RUNTIME_PASSTHROUGH).
  const ses = await (await import('./ses.ts')).startSesStandIn();
  process.env.AWS_ENDPOINT_URL_SESV2 = ses.endpoint;
  // S3: the exports bucket and its presigned URLs (scripts/local/s3.ts), for every process after this one too.
  const s3 = await (await import('./s3.ts')).startS3StandIn();
  process.env.AWS_ENDPOINT_URL_S3 = s3.endpoint;
  const stop = async () => {
    await appsyncEvents.stop();
    await projector?.stop();
    await events?.stop();
    await live.ivs.stop();
    await stripe.stop();
    await ivschat.stop();
    await appStore.stop();
    await play.stop();
    await googleIdp.stop();
    await ses.stop();
    await s3.stop();
    await (await starting?.catch(() => undefined))?.stop();
  };
  try {
    // Imported only now: the stand-ins' settings above are in place before any module loads.
    const { createTable } = await import('../../shared/db/create-table.ts');
    const { tableName } = await import('../../shared/db/table.ts');
    const { generateCatalog } = await import('../seed/generate.ts');
    const { loadCatalog } = await import('../seed/load.ts');
    const { batchPut } = await import('../../shared/db/batch.ts');
    const { ivsChannelItem } = await import('../../shared/ivs/channel-repository.ts');
    const { provisionDemoChannels, openDemoChatRooms, offlineWithChannel, startDemoBroadcasts } =
      await import('./ivs/demo-channels.ts');
    const { roomLookupItem } = await import('../../shared/chat/chat-repository.ts');
    const { onboardDemoCreators, sellingCreators } = await import('./stripe/demo.ts');
    const seededAt = options.now ?? new Date();
    const catalog = generateCatalog({ now: seededAt, seed: options.seed, scale: options.scale });
    // The creators the seed shows live go live through IVS (scripts/local/ivs/demo-channels.ts):
    // their channels (each with its chat room, as POST /studio/channel makes them) are made while
    // DynamoDB Local boots, the creators loaded offline with them.
    // The creators who sell something get onboarded Connect accounts meanwhile (scripts/local/stripe/demo.ts).
    const [demoChannels, payoutItems] = await Promise.all([
      provisionDemoChannels(live.ivs, catalog.creators, live.recordingConfigurationArn).then(
        openDemoChatRooms,
      ),
      onboardDemoCreators(stripe, sellingCreators(catalog), seededAt),
      starting,
    ]);
    const withChannel = new Map(demoChannels.map((demo) => [demo.creator.id, offlineWithChannel(demo)]));
    const admin = new DynamoDBClient({});
    await createTable(admin, tableName());
    const creators = catalog.creators.map((creator) => withChannel.get(creator.id) ?? creator);
    const [{ items }] = await Promise.all([
      loadCatalog({ ...catalog, creators }, seededAt),
      batchPut([
        ...demoChannels.flatMap(({ creator, channel }) => [
          ivsChannelItem(channel.channel_arn, creator.id),
          roomLookupItem(channel.chat_room_arn, creator.id),
        ]),
        ...payoutItems,
      ]),
    ]);
    // The table stream's two readers, started together (each reads the stream to its tip first):
    // the projector, and domain events onto the local EventBridge bus. Each is kept as it starts,
    // so that `stop` ends it even when the other failed.
    const { startLocalEventPublisher } = await import('./event-bus.ts');
    const readers = await Promise.allSettled([
      startProjector(tableName()).then((started) => {
        projector = started;
      }),
      startLocalEventPublisher({ tableName: tableName() }).then((started) => {
        events = started;
      }),
    ]);
    for (const reader of readers) if (reader.status === 'rejected') throw reader.reason;
    if (!projector || !events) throw new Error('a table stream reader did not start');
    const { chatReviewRow, ivsEventRow } = await import('../../functions/workers.ts');
    const { handler: onIvsEvent } = await import('../../functions/live/ivs-event.ts');
    const { functionContext, runAsFunction } = await import('./aws.ts');
    const ivsEvents = functionContext(ivsEventRow);
    // IVS Chat invokes rooms' review handler by ARN: served as its function (scripts/local/lambda.ts)
    // under the ARN the rooms name (LOCAL_CHAT.reviewHandlerArn, CHAT_REVIEW_HANDLER_ARN).
    const { handler: reviewChatMessage } = await import('../../functions/chat/review-message.ts');
    const { serveLocalFunction } = await import('./lambda.ts');
    const { LOCAL_CHAT } = await import('./aws.ts');
    if (serveLocalFunction(chatReviewRow, reviewChatMessage) !== LOCAL_CHAT.reviewHandlerArn)
      throw new Error('The chat review handler is served under another ARN than the rooms name');
    const broadcaster = live.connect((event) => runAsFunction(ivsEvents, () => onIvsEvent(event)));
    // Ready only once every demo channel is live in the lists: their Stream Start events applied
    // (each awaited by the broadcaster), then projected; then the minute's audiences, projected.
    await startDemoBroadcasts(broadcaster, demoChannels);
    await projector.drain();
    await projector.publishAudiences();
    await projector.drain();
    appsyncEvents.startTicks();
    return {
      endpoint,
      seededAt,
      items: items + 2 * demoChannels.length + payoutItems.length,
      ivsEndpoint: live.ivs.endpoint,
      eventsEndpoint: events.bus.endpoint,
      stripe,
      ses,
      ivschat,
      appsyncEvents,
      appStore,
      play,
      drain: async () => {
        await projector!.drain();
        await events!.drain();
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
};
