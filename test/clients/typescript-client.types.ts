/**
 * Type test of the generated TypeScript client (clients/typescript), checked by `tsc --noEmit`
 * (npm run typecheck): never run, only compiled. The responses of the flow a client developer
 * writes first (list creators, sign in, open a watch session, heartbeat, end it; the program in
 * typescript-client.int.test.ts) are typed all the way down, with no `unknown` and no `any`
 * anywhere in their bodies, and a misspelled response field does not compile.
 */
import type { ApiClient, Schemas } from '../../clients/typescript/index.ts';

type IsAny<T> = 0 extends 1 & T ? true : false;
type IsUnknown<T> = IsAny<T> extends true ? false : unknown extends T ? true : false;
type Expect<T extends true> = T;
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/**
 * The paths inside `T` whose type is `any` or `unknown` (`never` when there is none), so a failure
 * names the loose field: `Expect<Equal<LooseFields<Body>, never>>` shows e.g. `".data.session"`.
 */
type LooseFields<T, Path extends string = ''> =
  IsAny<T> extends true
    ? `${Path} (any)`
    : IsUnknown<T> extends true
      ? `${Path} (unknown)`
      : T extends readonly (infer E)[]
        ? LooseFields<E, `${Path}[]`>
        : T extends object
          ? { [K in keyof T & string]-?: LooseFields<T[K], `${Path}.${K}`> }[keyof T & string]
          : never;

/** What a successful call of `fn` gives back in `data`. */
type Body<F extends (...args: never[]) => Promise<{ data?: unknown }>> = NonNullable<
  Awaited<ReturnType<F>>['data']
>;

declare const api: ApiClient;
const listCreators = () => api.GET('/creators', { params: { query: { tier: 'gold', limit: 5 } } });
const signIn = () =>
  api.POST('/auth/login', { body: { email: 'viewer@demo.stream', password: 'demo-password-1' } });
const path = { id: 'cr_0002' };
const openWatch = () =>
  api.POST('/creators/{id}/channel/live/watch', {
    params: { path },
    body: { channel_id: 'ch_0002', device_type: 'web', quality: '720p', timezone: 'Europe/Paris' },
  });
const heartbeat = () =>
  api.GET('/creators/{id}/channel/live/heartbeat', { params: { path, query: { session_id: 'x' } } });
const endWatch = () =>
  api.DELETE('/creators/{id}/channel/live/watch', { params: { path, query: { session_id: 'x' } } });

type CreatorPage = Body<typeof listCreators>;
type SignedIn = Body<typeof signIn>;
/** The 200 of POST /auth/login (a 202 carries a second-factor challenge instead). */
type SignedInData = Extract<SignedIn['data'], { auth_token: string }>;
type Watch = Body<typeof openWatch>;
type Heartbeat = Body<typeof heartbeat>;
type Ended = Body<typeof endWatch>;

export type Checks = [
  // The bodies are typed, top to bottom.
  Expect<Equal<IsAny<CreatorPage['data']>, false>>,
  Expect<Equal<IsUnknown<CreatorPage['data']>, false>>,
  Expect<Equal<LooseFields<CreatorPage>, never>>,
  Expect<Equal<LooseFields<SignedIn>, never>>,
  Expect<Equal<LooseFields<Watch>, never>>,
  Expect<Equal<LooseFields<Heartbeat>, never>>,
  Expect<Equal<LooseFields<Ended>, never>>,
  // Fields a client reads have their documented types.
  Expect<Equal<CreatorPage['data']['creators'][number]['subscribers_formatted'], string>>,
  Expect<Equal<CreatorPage['data']['creators'][number], Schemas['CreatorSummary']>>,
  Expect<Equal<CreatorPage['meta_data']['total'], number>>,
  Expect<Equal<SignedInData['auth_token'], string>>,
  Expect<Equal<SignedInData, Schemas['SignedInAccount']>>,
  Expect<Equal<Exclude<SignedIn['data'], SignedInData>, Schemas['MfaChallenge']>>,
  Expect<Equal<Watch['data']['session']['session_id'], string>>,
  Expect<Equal<Heartbeat['data']['session_valid'], boolean>>,
  Expect<Equal<Ended['data']['watch_duration_seconds'], number>>,
];

/** A misspelled field does not compile: were any of these `any`, the expected errors would be unused and fail. */
export const misspelled = (creators: CreatorPage, watch: Watch, beat: Heartbeat) => [
  // @ts-expect-error `subscriber_formatted` is not a field: the field is `subscribers_formatted`
  creators.data.creators[0]?.subscriber_formatted,
  // @ts-expect-error `sessionId` is not a field: the field is `session_id`
  watch.data.session.sessionId,
  // @ts-expect-error `next_heartbeat_second` is not a field: the field is `next_heartbeat_seconds`
  beat.data.next_heartbeat_second,
];

/** A request that does not fit the document does not compile either. */
export const wrongRequests = () => [
  // @ts-expect-error `tier` takes a tier id, not any string
  api.GET('/creators', { params: { query: { tier: 'diamond' } } }),
  // @ts-expect-error the path has no such route
  api.GET('/creator'),
  // @ts-expect-error opening a watch session needs its body
  api.POST('/creators/{id}/channel/live/watch', { params: { path } }),
];
