import type { WorkerRow } from '../shared/routing/function-row.ts';

/**
 * Functions that no HTTP route invokes: function rows with the trigger that invokes them
 * (shared/routing/function-row.ts `WorkerRow`), so the stack's grants and environment and the
 * local platform's guard come from the one derivation every function's do
 * (shared/platform/access.ts).
 */
export const projectorRow = {
  trigger: '$stream/projector',
  handler: 'projector/project-changes',
  timeout: { seconds: 60, reason: 'a batch of 100 records of a few reads and writes each, with headroom' },
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
} as const satisfies WorkerRow;

/**
 * The rebuild: recomputes every view from the source items (repair, backfills); invoked by an
 * operator (`aws lambda invoke`, or `npm run rebuild-views` against a table). Reads the whole
 * table, so it is never on a request path.
 */
export const rebuildRow = {
  trigger: '$operator/rebuild-views',
  handler: 'projector/rebuild-views',
  timeout: { seconds: 900, reason: "the whole table (Lambda's maximum)" },
  // UpdateItem: the guide index keys of programs written before the index, and show profiles'
  // GSI1 key and episode tally; Query: a show's item collection (its profile and episodes) read
  // again, strongly consistent, before its repair (shared/shows/show-repository.ts,
  // repairShowProfile). test/projection/rebuild-function.int.test.ts runs it under these grants.
  dynamo: { actions: ['Scan', 'BatchWriteItem', 'UpdateItem', 'Query'] },
  memory: { mb: 1024, reason: 'holds every source and view item of the catalogue while it compares them' },
  summary: 'Rebuild: recomputes every view from the source items (docs/projections.md)',
} as const satisfies WorkerRow;

/**
 * What changes with time alone (the 7-day windows behind `trending`, `is_new`), recomputed on a
 * schedule (EventBridge Scheduler, hourly).
 */
export const recomputeRow = {
  trigger: '$schedule/recompute-windows',
  handler: 'projector/recompute-windows',
  timeout: {
    seconds: 300,
    reason: 'one pass over the 7-day windows (queries and updates), well inside an hour',
  },
  dynamo: { actions: ['Query', 'UpdateItem', 'DeleteItem'] },
  summary: 'Recompute: moves the 7-day trending windows and the new flag on (hourly)',
} as const satisfies WorkerRow;

/**
 * Every minute, the live lists' upkeep: the reconcile of the channels' live state with IVS
 * (ListStreams; shared/channels/channel-state.ts), then `watching_now` of live channels from the live
 * counters onto their creator items, so the live list shows and ranks by them
 * (shared/watch/audience-publisher.ts).
 */
export const audienceRow = {
  trigger: '$schedule/publish-audiences',
  handler: 'projector/publish-audiences',
  timeout: { seconds: 50, reason: 'a few reads and writes per live channel, well inside its minute' },
  // Query: the live list, pending recordings. BatchGetItem: its creators, channel lookups and
  // viewer counters. UpdateItem: a corrected live state, a count. ListStreams: what IVS has live.
  // The recording repair (a lost Recording End) does what the IVS event function does for one:
  // GetItem, PutItem, UpdateItem (the Live show and its episode, one transaction), DeleteItem (the
  // pending item); S3 GetObject of recording-ended.json (recordings-reader).
  dynamo: { actions: ['Query', 'BatchGetItem', 'UpdateItem', 'GetItem', 'PutItem', 'DeleteItem'] },
  ivs: ['ListStreams'],
  needs: ['recordings-reader'],
  summary: 'Live minute: live state reconciled with IVS, viewer counts onto the live list',
} as const satisfies WorkerRow;

/**
 * IVS events (EventBridge rule on `aws.ivs`: stream state, health, recording, limit breaches)
 * reduced into the creators' live state (shared/channels/channel-state.ts, docs/ivs-events.md).
 */
export const ivsEventRow = {
  trigger: '$events/ivs',
  handler: 'live/ivs-event',
  timeout: { seconds: 30, reason: "one document, a few reads and writes, a recording's metadata" },
  // GetItem: the channel's lookup item, its creator, a recording's marker and the Live show.
  // UpdateItem: the creator's live state and recording, the show's seasons and version. Query:
  // the show's last episode. PutItem: the show, a recording's episode and marker (one
  // transaction). S3 GetObject: the recording's metadata (recordings-reader).
  // DeleteItem: the recording's pending item (in the transaction), written at Recording Start.
  dynamo: { actions: ['GetItem', 'UpdateItem', 'Query', 'PutItem', 'DeleteItem'] },
  needs: ['recordings-reader'],
  summary: 'IVS events: channel live state from Amazon IVS (EventBridge); recordings on demand',
} as const satisfies WorkerRow;

/**
 * The media CDN's origin for recorded HLS playlists (infra/media-cdn.ts: CloudFront's `ivs/*.m3u8`
 * behaviour, through a function URL only CloudFront may call): each playlist with the request's
 * signature carried to its children (shared/playback/signed-playlists.ts), so a plain web player
 * plays a signed recording (docs/live.md "Recorded media: signed URLs"). S3 GetObject: the
 * playlist (recordings-reader). No table.
 */
export const mediaPlaylistRow = {
  trigger: '$cdn/recorded-playlists',
  handler: 'live/media-playlist',
  needs: ['recordings-reader'],
  summary: 'Recorded playlists: the media CDN origin that carries a signature to every child URI',
} as const satisfies WorkerRow;

/**
 * IVS Chat's message review handler (functions/chat/review-message.ts, docs/chat.md "Review"):
 * invoked by IVS Chat for every message of every room, synchronously, within 200 ms.
 */
export const chatReviewRow = {
  trigger: '$chat/review',
  handler: 'chat/review-message',
  timeout: {
    seconds: 1,
    reason: "IVS waits 200 ms; Lambda's smallest timeout is 1 s (a late answer is IVS's fallback anyway)",
  },
  // GetItem: a room's lookup item (once per container) and its channel's settings (every 10 s).
  dynamo: { actions: ['GetItem'] },
  summary: 'Chat review: every chat message against the channel rules (ALLOW or DENY with a reason)',
} as const satisfies WorkerRow;

export const workers: readonly WorkerRow[] = [
  projectorRow,
  rebuildRow,
  recomputeRow,
  audienceRow,
  ivsEventRow,
  mediaPlaylistRow,
  chatReviewRow,
];
