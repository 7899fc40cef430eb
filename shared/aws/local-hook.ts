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
