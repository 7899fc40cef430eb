import { describe, expect, it } from 'vitest';
import { eventTimeMs, parseIvsEvent } from '../../shared/channels/ivs-events.ts';

/**
 * The example documents of "Using Amazon EventBridge with IVS Low-Latency Streaming" (AWS IVS
 * user guide), as published: each must parse, keep what the reducer reads, and bad variants must
 * be refused with the path of what is wrong.
 */
const CHANNEL = 'arn:aws:ivs:us-east-1:aws_account_id:channel/12345678-1a23-4567-a1bc-1a2b34567890';
const STREAM = 'st-1A2b3c4D5e6F78ghij9Klmn';

const streamState = (detail: Record<string, unknown>) => ({
  version: '0',
  id: '01234567-0123-0123-0123-012345678901',
  'detail-type': 'IVS Stream State Change',
  source: 'aws.ivs',
  account: 'aws_account_id',
  time: '2017-06-12T10:23:43Z',
  region: 'us-east-1',
  resources: [CHANNEL],
  detail,
});

const sessionCreated = {
  version: '0',
  id: 'aa5b7a40-36cf-8dc4-5554-32d70e047215',
  'detail-type': 'IVS Stream State Change',
  source: 'aws.ivs',
  account: '535011710559',
  time: '2024-09-09T16:17:26Z',
  region: 'us-east-1',
  resources: ['arn:aws:ivs:us-west-2:535011710559:channel/UCGaMPGLCbcE'],
  detail: { event_name: 'Session Created', channel_name: '', stream_id: 'st-1AuTyMDASvHUTSb8p5PvbsO' },
};
const sessionEnded = {
  ...sessionCreated,
  id: '6f2723f3-ee31-9e48-b030-ac865e261a8e',
  detail: {
    event_name: 'Session Ended',
    channel_name: '',
    code: 'MultitrackInputNotAllowed',
    stream_id: 'st-1AuTyMDASvHUTSb8p5PvbsO',
  },
};
const streamStart = streamState({
  event_name: 'Stream Start',
  channel_name: 'Your Channel',
  stream_id: STREAM,
});
const streamEnd = streamState({ event_name: 'Stream End', channel_name: 'Your Channel', stream_id: STREAM });
const streamFailure = streamState({
  event_name: 'Stream Failure',
  channel_name: 'Your Channel',
  stream_id: STREAM,
  reason: 'Transcode capacity exceeded. Please try again.',
});
const streamTakeover = streamState({
  event_name: 'Stream Takeover',
  channel_name: 'Your Channel',
  stream_id: STREAM,
});
const streamTakeoverFailure = streamState({
  event_name: 'Stream Takeover Failure',
  channel_name: 'Your Channel',
  stream_id: STREAM,
  code: 'StreamTakeoverInvalidPriority',
});

const health = (eventName: string) => ({
  ...streamState({ event_name: eventName, channel_name: 'Your Channel', stream_id: STREAM }),
  'detail-type': 'IVS Stream Health Change',
});

const limit = (resources: string[], detail: Record<string, unknown>) => ({
  ...streamState({}),
  'detail-type': 'IVS Limit Breach',
  resources,
  detail,
});
const ingestBitrate = limit([CHANNEL], {
  limit_name: 'Ingest Bitrate',
  limit_value: 1234,
  exceeded_by: 3,
  limit_unit: 'bits per second',
  channel_name: 'Your Channel',
  stream_id: STREAM,
});
const ingestResolution = limit([CHANNEL], {
  limit_name: 'Ingest Resolution',
  limit_value: 495000,
  exceeded_by: 426600,
  limit_unit: 'total pixels',
  channel_name: 'Your Channel',
  stream_id: STREAM,
});
const concurrentBroadcasts = limit([], {
  limit_name: 'Concurrent Broadcasts',
  limit_value: 2,
  exceeded_by: 3,
  limit_unit: 'active streams',
});
const concurrentViewers = limit([], {
  limit_name: 'Concurrent Viewers',
  limit_value: 10,
  exceeded_by: 11,
  limit_unit: 'viewers',
});

const recording = <D extends Record<string, unknown>>(
  time: string,
  detail: D,
  resource = 'arn:aws:ivs:us-west-2:123456789012:channel/AbCdef1G2hij',
) => ({
  version: '0',
  id: '12345678-1a23-4567-a1bc-1a2b34567890',
  'detail-type': 'IVS Recording State Change',
  source: 'aws.ivs',
  account: '123456789012',
  time,
  region: 'us-west-2',
  resources: [resource],
  detail: {
    channel_name: 'Your Channel',
    stream_id: STREAM,
    recording_s3_bucket_name: 'r2s3-dev-channel-1-recordings',
    recording_session_id: 'a6RfV23ES97iyfoQ',
    ...detail,
  },
});
const PREFIX = 'ivs/v1/123456789012/AbCdef1G2hij/2020/6/23/20/12/j8Z9O91ndcVs';
const recordingStart = recording('2020-06-23T20:12:36Z', {
  recording_status: 'Recording Start',
  recording_status_reason: '',
  recording_s3_key_prefix: PREFIX,
  recording_duration_ms: 0,
});
const recordingEnd = recording('2020-06-24T07:51:32Z', {
  recording_status: 'Recording End',
  recording_status_reason: '',
  recording_s3_key_prefix: PREFIX,
  recording_duration_ms: 99370264,
  recording_session_stream_ids: ['st-254sopYUvi6F78ghpO9vn0A', STREAM],
});
const recordingStartFailure = recording('2020-06-23T20:12:36Z', {
  recording_status: 'Recording Start Failure',
  recording_status_reason: 'ValidationException',
  recording_s3_key_prefix: '',
  recording_duration_ms: 0,
});
// As published, including its resource (not a channel ARN): parsed, the channel lookup finds nothing.
const recordingEndFailure = recording(
  '2020-06-24T07:51:32Z',
  {
    recording_status: 'Recording End Failure',
    recording_status_reason: 'InternalServerException',
    recording_s3_key_prefix: PREFIX,
    recording_duration_ms: 0,
  },
  'arn:aws:ivs:us-west-2:123456a7-ab1c-2d34-e5f6-1a2b3c4d5678',
);

const parsed = (doc: unknown) => {
  const result = parseIvsEvent(doc);
  if (!result.ok) throw new Error(`expected a valid document, got: ${result.error}`);
  return result.event;
};
const refused = (doc: unknown) => {
  const result = parseIvsEvent(doc);
  if (result.ok) throw new Error('expected the document to be refused');
  return result.error;
};

describe('parseIvsEvent: the AWS example documents', () => {
  it.each([
    ['Session Created', sessionCreated],
    ['Session Ended', sessionEnded],
    ['Stream Start', streamStart],
    ['Stream End', streamEnd],
    ['Stream Failure', streamFailure],
    ['Stream Takeover', streamTakeover],
    ['Stream Takeover Failure', streamTakeoverFailure],
  ])('IVS Stream State Change: %s', (name, doc) => {
    const event = parsed(doc);
    expect(event['detail-type']).toBe('IVS Stream State Change');
    if (event['detail-type'] !== 'IVS Stream State Change') return;
    expect(event.detail.event_name).toBe(name);
    expect(event.detail.stream_id).toBe(doc.detail.stream_id);
    expect(event.resources[0]).toBe(doc.resources[0]);
  });

  it.each(['Starvation Start', 'Starvation End'])('IVS Stream Health Change: %s', (name) => {
    const event = parsed(health(name));
    expect(event).toMatchObject({
      'detail-type': 'IVS Stream Health Change',
      resources: [CHANNEL],
      detail: { event_name: name, stream_id: STREAM },
    });
  });

  it.each([
    ['Ingest Bitrate', ingestBitrate],
    ['Ingest Resolution', ingestResolution],
    ['Concurrent Broadcasts', concurrentBroadcasts],
    ['Concurrent Viewers', concurrentViewers],
  ])('IVS Limit Breach: %s (account-wide ones name no channel)', (name, doc) => {
    const event = parsed(doc);
    expect(event['detail-type']).toBe('IVS Limit Breach');
    expect(event.resources).toEqual(doc.resources);
    expect(event.detail).toMatchObject({ limit_name: name, limit_value: doc.detail.limit_value });
  });

  it.each([
    ['Recording Start', recordingStart],
    ['Recording End', recordingEnd],
    ['Recording Start Failure', recordingStartFailure],
    ['Recording End Failure', recordingEndFailure],
  ])('IVS Recording State Change: %s', (status, doc) => {
    const event = parsed(doc);
    expect(event).toMatchObject({
      'detail-type': 'IVS Recording State Change',
      detail: {
        recording_status: status,
        recording_s3_bucket_name: 'r2s3-dev-channel-1-recordings',
        recording_s3_key_prefix: doc.detail.recording_s3_key_prefix,
        recording_duration_ms: doc.detail.recording_duration_ms,
      },
    });
  });

  it('keeps the time as given and orders by it in epoch milliseconds', () => {
    expect(eventTimeMs(parsed(streamStart))).toBe(Date.UTC(2017, 5, 12, 10, 23, 43));
  });

  it('drops fields it does not know (AWS adds fields over time)', () => {
    const event = parsed({
      ...streamStart,
      detail: { ...streamStart.detail, new_field: 1 },
      'replay-name': 'x',
    });
    expect(event.detail).toEqual(streamStart.detail);
    expect(event).not.toHaveProperty('replay-name');
  });
});

describe('parseIvsEvent refuses, saying where', () => {
  it.each([
    ['not an object', 'Stream Start', /\(root\)/],
    ['null', null, /\(root\)/],
    ['another source', { ...streamStart, source: 'aws.medialive' }, /source: /],
    ['a real-time (stage) event', { ...streamStart, 'detail-type': 'IVS Stage Update' }, /detail-type: /],
    [
      'an unknown event name',
      streamState({ event_name: 'Stream Up', channel_name: 'c', stream_id: STREAM }),
      /detail\.event_name: /,
    ],
    [
      'a state change without its stream',
      streamState({ event_name: 'Stream End', channel_name: 'c' }),
      /detail\.stream_id: /,
    ],
    ['a state change naming no channel', { ...streamStart, resources: [] }, /resources\.0: /],
    ['a time that is no ISO instant', { ...streamStart, time: '12/06/2017 10:23' }, /time: /],
    ['a health change of another name', health('Starvation Middle'), /detail\.event_name: /],
    [
      'a recording without its prefix',
      { ...recordingEnd, detail: { ...recordingEnd.detail, recording_s3_key_prefix: undefined } },
      /detail\.recording_s3_key_prefix: /,
    ],
    [
      'a negative recording duration',
      { ...recordingEnd, detail: { ...recordingEnd.detail, recording_duration_ms: -1 } },
      /detail\.recording_duration_ms: /,
    ],
    [
      'a limit breach without its value',
      { ...ingestBitrate, detail: { ...ingestBitrate.detail, limit_value: '1234' } },
      /detail\.limit_value: /,
    ],
  ])('%s', (_, doc, where) => {
    expect(refused(doc)).toMatch(where);
  });

  it('lists every problem of a document', () => {
    const error = refused({ ...streamStart, id: '', time: 'yesterday' });
    expect(error.split('; ')).toHaveLength(2);
    expect(error).toMatch(/^id: .*; time: /);
  });
});
