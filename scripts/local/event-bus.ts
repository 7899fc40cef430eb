import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DynamoDBStreamEvent } from 'aws-lambda';

/**
 * The local stand-in for the stack's Amazon EventBridge bus (docs/events.md, "Locally").
 *
 * **Publishing.** The real `@aws-sdk/client-eventbridge` talks to it through an `endpoint`
 * setting (AWS_ENDPOINT_URL_EVENTBRIDGE; shared/events/publish.ts): awsJson1_1, `POST /` with
 * `X-Amz-Target: AWSEvents.PutEvents`. It enforces what EventBridge enforces and the publisher
 * relies on: 1-10 entries per call and 256 KB per call (ValidationException), and per entry an
 * existing bus (`ResourceNotFoundException`), `Source`, `DetailType` and a JSON-object `Detail`
 * (`InvalidArgument`, `MalformedDetail`), no `aws.` sources (`NotAuthorizedForSourceException`). Per-entry failures come back in
 * `Entries` with `FailedEntryCount`, as on AWS. Who may call it is checked before the call leaves
 * the process: the local IAM guard (scripts/local/aws.ts) refuses `events:PutEvents` on a bus the
 * function's policy does not name, as IAM would.
 *
 * **Subscribing (rules).** Other local code subscribes like an EventBridge rule with a target:
 *
 * ```ts
 * import { addLocalRule } from './event-bus.ts';
 * const remove = addLocalRule({ source: ['streaming.platform'], 'detail-type': ['creator.live'] },
 *   async (event) => { ... event.detail is the PlatformEvent envelope ... });
 * ```
 *
 * - `pattern` is an EventBridge event pattern over the event's EventBridge form (`source`,
 *   `detail-type`, `detail`, ...): leaves are arrays of allowed values (any matches), nested
 *   objects match fields of `detail`; `{prefix}`, `{suffix}`, `{'anything-but': ...}` and
 *   `{exists: bool}` are supported (`matchesPattern`).
 * - `target` receives the event as EventBridge delivers it (`EventBridgeEvent`: version, id,
 *   detail-type, source, account, time, region, resources, detail), after the PutEvents call
 *   answered (delivery never slows the publisher), one event at a time per rule, in the order
 *   the bus accepted them. A target that throws is retried (3 more times, 100 ms apart here;
 *   EventBridge retries for up to 24 h), then the event is logged to stderr as the rule's
 *   dead-letter queue would receive it.
 * - Rules are kept per process, whether added before or after the bus starts; `addLocalRule`
 *   answers a function that removes the rule. `drainLocalBus()` resolves once every accepted
 *   event has been delivered to every matching target (tests use it instead of sleeping).
 *   Stopping the bus lets the deliveries under way finish and drops those not begun.
 *
 * **Observing.** `GET /_local/events` answers every event the bus accepted, oldest first
 * (`?detail-type=creator.live` to filter); test processes that do not share the bus's process use
 * it. `POST /_local/faults {"failEntries": n}` makes the next n entries fail with
 * `InternalException` (the publisher's per-entry retry path, locally).
 */

export const LOCAL_EVENTS_REGION = 'local';
export const LOCAL_EVENTS_ACCOUNT = '000000000000';
/** The local bus's name (the stack names its own; EVENT_BUS_NAME carries it to the publisher). */
export const LOCAL_EVENT_BUS_NAME = 'creator-streaming-local-events';

/** An event bus's ARN (the local IAM guard and the bus accept the name or the ARN). */
export const localBusArn = (name: string): string =>
  name.startsWith('arn:')
    ? name
    : `arn:aws:events:${LOCAL_EVENTS_REGION}:${LOCAL_EVENTS_ACCOUNT}:event-bus/${name}`;

/** An event as EventBridge delivers it to a rule's target. */
export interface EventBridgeEvent {
  version: '0';
  id: string;
  'detail-type': string;
  source: string;
  account: string;
  time: string;
  region: string;
  resources: string[];
  detail: Record<string, unknown>;
}

/** An EventBridge event pattern (https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-event-patterns.html), the subset above. */
export type EventPattern = { [field: string]: readonly unknown[] | EventPattern };

export type LocalRuleTarget = (event: EventBridgeEvent) => Promise<void>;

interface Rule {
  pattern: EventPattern;
  target: LocalRuleTarget;
  /** Deliveries of this rule, chained: one at a time, in acceptance order. */
  queue: Promise<void>;
}

const TARGET_RETRIES = 3;
const TARGET_RETRY_MS = 100;
const MAX_ENTRIES = 10;
const MAX_REQUEST_BYTES = 256 * 1024;

const rules = new Set<Rule>();
const accepted: EventBridgeEvent[] = [];
const pending = new Set<Promise<void>>();
let failNextEntries = 0;

/** Does one pattern leaf value (`'x'`, `{prefix: 'x'}`, ...) match one event value? */
const matchesValue = (rule: unknown, value: unknown): boolean => {
  if (rule === null || typeof rule !== 'object') return rule === value;
  const r = rule as Record<string, unknown>;
  if ('prefix' in r) return typeof value === 'string' && value.startsWith(String(r.prefix));
  if ('suffix' in r) return typeof value === 'string' && value.endsWith(String(r.suffix));
  if ('anything-but' in r) {
    const but = r['anything-but'];
    const list = Array.isArray(but) ? but : [but];
    return value !== undefined && !list.some((b) => matchesValue(b, value));
  }
  return false;
};

/** Does `event` (or a part of it) match `pattern`, as an EventBridge rule would decide? */
export const matchesPattern = (pattern: EventPattern, event: unknown): boolean => {
  const object = (event ?? {}) as Record<string, unknown>;
  return Object.entries(pattern).every(([field, rule]) => {
    const value = object[field];
    if (!Array.isArray(rule))
      return typeof value === 'object' && value !== null && matchesPattern(rule as EventPattern, value);
    const exists = rule.find((r) => typeof r === 'object' && r !== null && 'exists' in r) as
      | { exists: boolean }
      | undefined;
    if (exists) return exists.exists === (value !== undefined);
    const values = Array.isArray(value) ? value : [value];
    return values.some((v) => rule.some((r) => matchesValue(r, v)));
  });
};

/**
 * Subscribes `target` to the events on the local bus that match `pattern` (like a rule with one
 * target); answers a function that removes the rule. See the header for delivery and retries.
 */
export const addLocalRule = (pattern: EventPattern, target: LocalRuleTarget): (() => void) => {
  const rule: Rule = { pattern, target, queue: Promise.resolve() };
  rules.add(rule);
  return () => {
    rules.delete(rule);
  };
};

/** True while a bus stops: deliveries not begun yet are dropped (the bus's `stop`). */
let discarding = false;

const deliverTo = async (rule: Rule, event: EventBridgeEvent) => {
  if (discarding) return;
  for (let attempt = 0; ; attempt++) {
    try {
      await rule.target(event);
      return;
    } catch (error) {
      if (attempt >= TARGET_RETRIES) {
        console.error(
          `local event bus: target failed ${attempt + 1} times, event ${event.id} (${event['detail-type']}) dropped to the rule's dead letters: ${(error as Error).message}`,
        );
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, TARGET_RETRY_MS));
    }
  }
};

const dispatch = (event: EventBridgeEvent) => {
  for (const rule of rules) {
    if (!matchesPattern(rule.pattern, event)) continue;
    const delivery = rule.queue.then(() => deliverTo(rule, event));
    rule.queue = delivery;
    pending.add(delivery);
    void delivery.finally(() => pending.delete(delivery));
  }
};

/** Resolves once every event accepted so far has been delivered to every matching rule's target. */
export const drainLocalBus = async (): Promise<void> => {
  while (pending.size > 0) await Promise.all([...pending]);
};

/** Every event the bus accepted so far (oldest first), as rules receive them. */
export const localBusEvents = (): readonly EventBridgeEvent[] => accepted;

// ── PutEvents ────────────────────────────────────────────────────────────────────────────────

class EventsError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

interface EntryResult {
  EventId?: string;
  ErrorCode?: string;
  ErrorMessage?: string;
}

const putEntry = (entry: Record<string, unknown>, buses: Set<string>): EntryResult => {
  const bus = localBusArn(String(entry.EventBusName ?? 'default'));
  if (!buses.has(bus))
    return { ErrorCode: 'ResourceNotFoundException', ErrorMessage: `Event bus ${bus} does not exist.` };
  if (typeof entry.Source !== 'string' || entry.Source === '')
    return { ErrorCode: 'InvalidArgument', ErrorMessage: 'Parameter Source is not valid.' };
  if (entry.Source.startsWith('aws.'))
    return {
      ErrorCode: 'NotAuthorizedForSourceException',
      ErrorMessage: `Not authorized for the source ${entry.Source}.`,
    };
  if (typeof entry.DetailType !== 'string' || entry.DetailType === '')
    return { ErrorCode: 'InvalidArgument', ErrorMessage: 'Parameter DetailType is not valid.' };
  let detail: unknown;
  try {
    detail = JSON.parse(String(entry.Detail));
  } catch {
    detail = undefined;
  }
  if (detail === null || typeof detail !== 'object' || Array.isArray(detail))
    return { ErrorCode: 'MalformedDetail', ErrorMessage: 'Detail is malformed.' };
  if (failNextEntries > 0) {
    failNextEntries--;
    return { ErrorCode: 'InternalException', ErrorMessage: 'Injected failure (POST /_local/faults).' };
  }
  const time = entry.Time === undefined ? new Date() : new Date(Number(entry.Time) * 1000);
  const event: EventBridgeEvent = {
    version: '0',
    id: randomUUID(),
    'detail-type': entry.DetailType,
    source: entry.Source,
    account: LOCAL_EVENTS_ACCOUNT,
    time: (Number.isNaN(time.getTime()) ? new Date() : time).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    region: LOCAL_EVENTS_REGION,
    resources: Array.isArray(entry.Resources) ? entry.Resources.map(String) : [],
    detail: detail as Record<string, unknown>,
  };
  accepted.push(event);
  return { EventId: event.id, event } as EntryResult & { event: EventBridgeEvent };
};

const putEvents = (body: Record<string, unknown>, buses: Set<string>) => {
  const entries = body.Entries;
  if (!Array.isArray(entries) || entries.length < 1 || entries.length > MAX_ENTRIES)
    throw new EventsError(
      'ValidationException',
      `1 validation error detected: Value at 'entries' failed to satisfy constraint: Member must have length between 1 and ${MAX_ENTRIES}`,
    );
  const results = entries.map((entry) => putEntry(entry as Record<string, unknown>, buses));
  // Queued for the rules' targets now, delivered asynchronously: the answer never waits for them.
  for (const r of results) if ('event' in r) dispatch(r.event as EventBridgeEvent);
  return {
    FailedEntryCount: results.filter((r) => r.ErrorCode).length,
    Entries: results.map(({ EventId, ErrorCode, ErrorMessage }) => ({ EventId, ErrorCode, ErrorMessage })),
  };
};

const readBody = async (req: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

const sendJson = (res: ServerResponse, status: number, body: unknown, type = 'application/json') => {
  res.writeHead(status, { 'content-type': type, 'x-amzn-RequestId': randomUUID() });
  res.end(JSON.stringify(body));
};

export interface LocalEventBus {
  /** Where the SDK's endpoint setting points (AWS_ENDPOINT_URL_EVENTBRIDGE; also EVENTS_ENDPOINT). */
  endpoint: string;
  busName: string;
  busArn: string;
  stop(): Promise<void>;
}

/**
 * Starts the stand-in on `port` (0: any free port) with the bus `busName`. One per process: the
 * rules above are the process's.
 */
export const startLocalEventBus = async (
  options: { port?: number; busName?: string } = {},
): Promise<LocalEventBus> => {
  const busName = options.busName ?? LOCAL_EVENT_BUS_NAME;
  const buses = new Set([localBusArn(busName)]);
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://local');
      const text = await readBody(req);
      if (req.method === 'GET' && url.pathname === '/_local/events') {
        const type = url.searchParams.get('detail-type');
        return sendJson(res, 200, { events: accepted.filter((e) => !type || e['detail-type'] === type) });
      }
      if (req.method === 'POST' && url.pathname === '/_local/faults') {
        failNextEntries = Number((JSON.parse(text || '{}') as { failEntries?: number }).failEntries ?? 0);
        return sendJson(res, 200, { failEntries: failNextEntries });
      }
      const target = String(req.headers['x-amz-target'] ?? '');
      try {
        if (Buffer.byteLength(text) > MAX_REQUEST_BYTES)
          throw new EventsError(
            'ValidationException',
            'Total size of the entries in the request is over the limit.',
          );
        if (target !== 'AWSEvents.PutEvents')
          throw new EventsError(
            'UnknownOperationException',
            `${target || 'This operation'} is not served by the local event bus`,
          );
        const answer = putEvents(JSON.parse(text || '{}') as Record<string, unknown>, buses);
        sendJson(res, 200, answer, 'application/x-amz-json-1.1');
      } catch (error) {
        const e =
          error instanceof EventsError
            ? error
            : new EventsError('InternalException', (error as Error).message, 500);
        sendJson(res, e.status, { __type: e.type, message: e.message }, 'application/x-amz-json-1.1');
      }
    })();
  });
  await new Promise<void>((resolveListen) => server.listen(options.port ?? 0, '127.0.0.1', resolveListen));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    busName,
    busArn: localBusArn(busName),
    stop: async () => {
      // What a target is handling finishes; what is still queued is dropped, as the process (and
      // the in-memory platform) ends: a Ctrl-C after a bulk write waited for every queued delivery
      // (108 s after a 540,453-item reseed of a running npm start: a webhook fan-out per change).
      discarding = true;
      try {
        await drainLocalBus();
      } finally {
        discarding = false;
      }
      await new Promise<void>((resolveClose) => server.close(() => resolveClose()));
    },
  };
};

// ── The publisher, as Lambda runs it on AWS ─────────────────────────────────────────────────

/** Does a stream record pass the mapping's filter (infra/events.ts): a source item of PUBLISHED_ENTITIES? */
export const passesPublisherFilter = (
  record: {
    dynamodb?: { NewImage?: Record<string, { S?: string }>; OldImage?: Record<string, { S?: string }> };
  },
  entities: readonly string[],
): boolean =>
  [record.dynamodb?.NewImage, record.dynamodb?.OldImage].some((image) =>
    entities.includes(String(image?.entity?.S)),
  );

/**
 * The event publisher (functions/events/publish-events.ts) as the table stream's second reader:
 * the bus stand-in on `port` (0: any), and a local event source mapping
 * (scripts/local/table-stream.ts) from LATEST, with the AWS mapping's filter, each batch run as
 * the publisher function: its row's environment and policy plus EVENT_BUS_NAME and PutEvents on
 * this bus only (shared/events/access.ts), and the SDK's AWS_ENDPOINT_URL_EVENTBRIDGE (the
 * publisher's client finds the bus there, shared/events/publish.ts). Sets EVENTS_ENDPOINT (the
 * stand-in's base URL: test workers find `/_local/events` there; no function reads it) and
 * AWS_ENDPOINT_URL_EVENTBRIDGE in the host environment.
 */
export const startLocalEventPublisher = async (options: {
  tableName: string;
  port?: number;
  /** Sees every batch the mapping hands the publisher (after the filter), e.g. to replay it. */
  onBatch?: (event: DynamoDBStreamEvent) => void;
}) => {
  const { functionContext, runAsFunction } = await import('./aws.ts');
  const { startTableStream } = await import('./table-stream.ts');
  const { eventPublisherRow } = await import('../../functions/events/worker.ts');
  const { handler } = await import('../../functions/events/publish-events.ts');
  const { PUBLISHED_ENTITIES } = await import('../../shared/events/changes.ts');
  const { publisherEnvironment, publisherStatements } = await import('../../shared/events/access.ts');
  const bus = await startLocalEventBus({ port: options.port });
  process.env.EVENTS_ENDPOINT = bus.endpoint;
  process.env.AWS_ENDPOINT_URL_EVENTBRIDGE = bus.endpoint;
  const base = functionContext(eventPublisherRow);
  const context = {
    ...base,
    env: { ...base.env, ...publisherEnvironment(bus.busName), AWS_ENDPOINT_URL_EVENTBRIDGE: bus.endpoint },
    policy: [...base.policy, ...publisherStatements(bus.busArn)],
  };
  /** One invocation of the publisher, as the mapping makes it: filtered, run as the function. */
  const invoke = async (event: DynamoDBStreamEvent) => {
    const Records = event.Records.filter((r) => passesPublisherFilter(r as never, PUBLISHED_ENTITIES));
    if (Records.length === 0) return { batchItemFailures: [] };
    options.onBatch?.({ Records });
    return runAsFunction(context, () => handler({ Records }));
  };
  const stream = await startTableStream({
    tableName: options.tableName,
    handler: invoke,
    startingPosition: 'LATEST',
    maxRetries: 5,
    onFailure: ({ record, attempts }) => {
      console.error(
        `event publisher: gave up on stream record ${record.eventID} after ${attempts} attempts (the on-failure queue on AWS)`,
      );
    },
  });
  return {
    bus,
    /** Runs the publisher on `event` (a batch seen by `onBatch`, replayed as a retry would). */
    invoke,
    /** The publisher function's local context (environment and policy), for tests. */
    context,
    /** Resolves once every change written before the call is published and delivered to the rules. */
    drain: async () => {
      await stream.drain();
      await drainLocalBus();
    },
    stop: async () => {
      await stream.stop();
      await bus.stop();
    },
  };
};
