import type { RouteRow } from '../shared/routing/route.ts';

/**
 * Functions that no HTTP route invokes, described by the same row fields the routes use for what
 * a function may do (DynamoDB actions and indexes), so the stack's grants and environment and
 * the local platform's guard come from one derivation (shared/platform/access.ts). Their `path`
 * names the trigger, never an API route (they are not in the route table).
 */
export const projectorRow = {
  method: 'POST',
  path: '$stream/projector',
  handler: 'projector/project-changes',
  auth: 'none',
  // GetItem: view sets, a show's category, a show's creator. Query: a show's episodes; GSI1: a
  // renamed creator's shows (their search cards carry its name). BatchWriteItem: views.
  // PutItem, UpdateItem: a view set with its list totals (one transaction), the creator an
  // account becomes and the channel-number counter. Counters (one transaction each): PutItem or
  // DeleteItem of the marker, UpdateItem of the counted items. GSI3: a played episode by id.
  dynamo: {
    actions: ['GetItem', 'Query', 'BatchWriteItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
    indexes: ['GSI1', 'GSI3'],
  },
  memory: { mb: 512, reason: 'a batch of 100 records, each a few reads and writes; more CPU, faster drains' },
  // Firehose PutRecordBatch: catalogue changes append the analytics title dimension and money
  // events the payment facts (docs/analytics.md); the pseudonym key: a fact's account is its keyed
  // hash (shared/analytics/pseudonym.ts).
  needs: ['analytics-sink', 'analytics-pseudonym'],
  summary: 'Projector: keeps every view of the catalogue true from the table stream (docs/projections.md)',
  tag: 'Workers',
} as const satisfies RouteRow;

/**
 * The rebuild: recomputes every view from the source items (repair, backfills); invoked by an
 * operator (`aws lambda invoke`, or `npm run rebuild-views` against a table). Reads the whole
 * table, so it is never on a request path.
 */
export const rebuildRow = {
  method: 'POST',
  path: '$operator/rebuild-views',
  handler: 'projector/rebuild-views',
  auth: 'none',
  // UpdateItem: the guide index keys of programs written before the index (shared/projection/rebuild.ts).
  dynamo: { actions: ['Scan', 'BatchWriteItem', 'UpdateItem'] },
  memory: { mb: 1024, reason: 'holds every source and view item of the catalogue while it compares them' },
  summary: 'Rebuild: recomputes every view from the source items (docs/projections.md)',
  tag: 'Workers',
} as const satisfies RouteRow;

/**
 * What changes with time alone (the 7-day windows behind `trending`, `is_new`), recomputed on a
 * schedule (EventBridge Scheduler, hourly).
 */
export const recomputeRow = {
  method: 'POST',
  path: '$schedule/recompute-windows',
  handler: 'projector/recompute-windows',
  auth: 'none',
  dynamo: { actions: ['Query', 'UpdateItem', 'DeleteItem'] },
  summary: 'Recompute: moves the 7-day trending windows and the new flag on (hourly)',
  tag: 'Workers',
} as const satisfies RouteRow;

/**
 * Every minute, the live lists' upkeep: the reconcile of the channels' live state with IVS
 * (ListStreams; shared/channels/channel-state.ts), then `watching_now` of live channels from the live
 * counters onto their creator items, so the live list shows and ranks by them
 * (shared/watch/audience-publisher.ts).
 */
export const audienceRow = {
  method: 'POST',
  path: '$schedule/publish-audiences',
  handler: 'projector/publish-audiences',
  auth: 'none',
  // Query: the live list, pending recordings. BatchGetItem: its creators, channel lookups and
  // viewer counters. UpdateItem: a corrected live state, a count. ListStreams: what IVS has live.
  // The recording repair (a lost Recording End) does what the IVS event function does for one:
  // GetItem, PutItem, UpdateItem (the Live show and its episode, one transaction), DeleteItem (the
  // pending item); S3 GetObject of recording-ended.json (recordings-reader).
  dynamo: { actions: ['Query', 'BatchGetItem', 'UpdateItem', 'GetItem', 'PutItem', 'DeleteItem'] },
  ivs: ['ListStreams'],
  needs: ['recordings-reader'],
  summary: 'Live minute: live state reconciled with IVS, viewer counts onto the live list',
  tag: 'Workers',
} as const satisfies RouteRow;

/**
 * IVS events (EventBridge rule on `aws.ivs`: stream state, health, recording, limit breaches)
 * reduced into the creators' live state (shared/channels/channel-state.ts, docs/ivs-events.md).
 */
export const ivsEventRow = {
  method: 'POST',
  path: '$events/ivs',
  handler: 'live/ivs-event',
  auth: 'none',
  // GetItem: the channel's lookup item, its creator, a recording's marker and the Live show.
  // UpdateItem: the creator's live state and recording, the show's seasons and version. Query:
  // the show's last episode. PutItem: the show, a recording's episode and marker (one
  // transaction). S3 GetObject: the recording's metadata (recordings-reader).
  // DeleteItem: the recording's pending item (in the transaction), written at Recording Start.
  dynamo: { actions: ['GetItem', 'UpdateItem', 'Query', 'PutItem', 'DeleteItem'] },
  needs: ['recordings-reader'],
  summary: 'IVS events: channel live state from Amazon IVS (EventBridge); recordings on demand',
  tag: 'Workers',
} as const satisfies RouteRow;

/**
 * The media CDN's origin for recorded HLS playlists (infra/media-cdn.ts: CloudFront's `ivs/*.m3u8`
 * behaviour, through a function URL only CloudFront may call): each playlist with the request's
 * signature carried to its children (shared/playback/signed-playlists.ts), so a plain web player
 * plays a signed recording (docs/live.md "Recorded media: signed URLs"). S3 GetObject: the
 * playlist (recordings-reader). No table.
 */
export const mediaPlaylistRow = {
  method: 'GET',
  path: '$cdn/recorded-playlists',
  handler: 'live/media-playlist',
  auth: 'none',
  needs: ['recordings-reader'],
  summary: 'Recorded playlists: the media CDN origin that carries a signature to every child URI',
  tag: 'Workers',
} as const satisfies RouteRow;

/**
 * IVS Chat's message review handler (functions/chat/review-message.ts, docs/chat.md "Review"):
 * invoked by IVS Chat for every message of every room, synchronously, within 200 ms.
 */
export const chatReviewRow = {
  method: 'POST',
  path: '$chat/review',
  handler: 'chat/review-message',
  auth: 'none',
  // GetItem: a room's lookup item (once per container) and its channel's settings (every 10 s).
  dynamo: { actions: ['GetItem'] },
  summary: 'Chat review: every chat message against the channel rules (ALLOW or DENY with a reason)',
  tag: 'Workers',
} as const satisfies RouteRow;

export const workers: readonly RouteRow[] = [
  projectorRow,
  rebuildRow,
  recomputeRow,
  audienceRow,
  ivsEventRow,
  mediaPlaylistRow,
  chatReviewRow,
];
