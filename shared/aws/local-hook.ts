/**
 * Every AWS SDK client a function creates passes through `awsClient`, so that the local platform
 * (scripts/local/aws.ts) can attach its IAM guard and its stand-ins for services that have no
 * local emulator. On Lambda nothing is registered and this is a lookup of an absent global.
 */
export interface HookableClient {
  middlewareStack: { add(middleware: never, options: never): void };
}

type Hook = (client: HookableClient, service: string) => void;

const REGISTRY = Symbol.for('creator-streaming.aws-clients');
interface Registry {
  hook?: Hook;
  clients: Array<{ client: HookableClient; service: string }>;
}
const registry = (): Registry => {
  const global = globalThis as { [REGISTRY]?: Registry };
  global[REGISTRY] ??= { clients: [] };
  return global[REGISTRY];
};

/** Registers a client (e.g. `awsClient(new KMSClient({}), 'kms')`) and returns it. */
export const awsClient = <C extends HookableClient>(client: C, service: string): C => {
  const r = registry();
  if (r.hook) r.hook(client, service);
  else r.clients.push({ client, service });
  return client;
};

/** Local platform only: applies `hook` to every client made so far and every later one. */
export const installClientHook = (hook: Hook): void => {
  const r = registry();
  if (r.hook) return;
  r.hook = hook;
  for (const { client, service } of r.clients.splice(0)) hook(client, service);
};

const CONTAINER = Symbol.for('creator-streaming.container-id');

/**
 * State that lives as long as a container (caches, loaded keys, clients' promises). On Lambda a
 * process is one function's container, so there is one instance. The local platform runs every
 * function in one process and names the current one (`installContainerId`), so each function gets
 * its own instance there too: one function's warm cache never hides another's cold-path calls
 * from the IAM guard.
 * Called at module scope with a `@__PURE__` annotation (and so `oncePerContainer`,
 * `keyFromSecret`): a bundle that never uses the value then drops it with the SDK client it
 * makes (test/infra/bundle-clients.test.ts).
 */
export const perContainer = <T>(create: () => T): (() => T) => {
  const instances = new Map<string, T>();
  return () => {
    const id = (globalThis as { [CONTAINER]?: () => string })[CONTAINER]?.() ?? '';
    const existing = instances.get(id);
    if (existing !== undefined) return existing;
    const created = create();
    instances.set(id, created);
    return created;
  };
};

/** Local platform only: how to tell which function's container the current code runs in. */
export const installContainerId = (current: () => string): void => {
  (globalThis as { [CONTAINER]?: () => string })[CONTAINER] = current;
};

/**
 * A value loaded once per container (a key, a verifier): the load's promise is shared by every
 * caller, and forgotten if it fails, so the next call tries again instead of caching the failure.
 */
export const oncePerContainer = <T>(load: () => Promise<T>): (() => Promise<T>) => {
  const state = perContainer((): { promise?: Promise<T> } => ({}));
  return () => {
    const current = state();
    if (!current.promise) {
      const promise = load();
      current.promise = promise;
      promise.catch(() => {
        if (current.promise === promise) current.promise = undefined;
      });
    }
    return current.promise;
  };
};
