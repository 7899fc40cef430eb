import { describe, expect, it } from 'vitest';
import type { CreatorRecord } from '../../shared/catalog/model.ts';
import { creatorFromAccount } from '../../shared/identity/creator-from-account.ts';
import { dvrUrlOf, mediaUrlOf } from '../../shared/catalog/media-urls.ts';
import type { LiveRecording } from '../../shared/catalog/model.ts';
import {
  recordingEndedDocument,
  recordingEpisode,
  recordingEpisodeId,
} from '../../shared/channels/recordings.ts';

/** The pure parts of shared/channels/recordings.ts: the metadata schema, the episode's fields, the DVR URL. */
const CDN = 'https://d111111abcdef8.cloudfront.net';
const PREFIX = 'ivs/v1/123456789012/AsXego4U6tnj/2020/6/23/20/12/j8Z9O91ndcVs';

/** recording-ended.json as the IVS user guide shows it ("IVS Auto-Record to Amazon S3"). */
const ended = (media: Record<string, unknown> = {}) => ({
  version: 'v1',
  channel_arn: 'arn:aws:ivs:us-west-2:123456789012:channel/AsXego4U6tnj',
  recording_ended_at: '2020-06-14T12:53:20Z',
  recording_started_at: '2020-06-14T12:44:20Z',
  recording_status: 'RECORDING_ENDED',
  recording_status_message: '',
  media: {
    hls: {
      duration_ms: 172794486,
      path: 'media/hls',
      playlist: 'master.m3u8',
      byte_range_playlist: 'byte-range-multivariant.m3u8',
      renditions: [
        { path: '480p30', playlist: 'playlist.m3u8', resolution_width: 853, resolution_height: 480 },
      ],
    },
    thumbnails: { path: 'media/thumbnails', resolution_height: 480, resolution_width: 852 },
    ...media,
  },
});

const creator = (overrides: { requiresSubscription?: boolean; liveTitle?: string } = {}) => {
  const record: CreatorRecord & { live_title?: string } = creatorFromAccount(
    { account_id: 'acc_unit', creator_name: 'Unit Creator', handle: 'unit_creator', category: 'music' },
    901_234,
    new Date('2026-01-01T00:00:00Z'),
  );
  record.channel.requires_subscription = overrides.requiresSubscription ?? false;
  if (overrides.liveTitle) record.live_title = overrides.liveTitle;
  return record;
};

const ref = { creatorId: 'acc_unit', bucket: 'recordings', prefix: PREFIX, streamId: 'st-1' };
const place = { showId: 'sh_live', season: 1, episodeNumber: 7 };
const parse = (doc: unknown) => {
  const result = recordingEndedDocument.safeParse(doc);
  if (!result.success) throw new Error(result.error.message);
  return result.data;
};

describe('recording-ended.json', () => {
  it("accepts the guide's document and refuses paths that leave the recording or are missing", () => {
    expect(recordingEndedDocument.safeParse(ended()).success).toBe(true);
    for (const path of ['../other', '/media/hls', 'media/../../x', '']) {
      const doc = ended({ hls: { duration_ms: 1, path, playlist: 'master.m3u8' } });
      expect(recordingEndedDocument.safeParse(doc).success, path).toBe(false);
    }
    expect(
      recordingEndedDocument.safeParse({ ...ended(), recording_status: 'RECORDING_ENDED_WITH_FAILURE' })
        .success,
    ).toBe(false);
  });
});

describe('the episode of a recording', () => {
  it('takes duration, playlist and thumbnail from the document, on the CDN; free unless the channel requires a subscription', () => {
    const episode = recordingEpisode(creator(), ref, parse(ended()), place, CDN);
    expect(episode).toMatchObject({
      id: recordingEpisodeId('st-1'),
      show_id: 'sh_live',
      season: 1,
      episode_number: 7,
      title: 'Live: Jun 14, 2020',
      duration_seconds: 172794, // 172,794,486 ms
      access: 'free',
      stream_url: `${CDN}/${PREFIX}/media/hls/master.m3u8`,
      thumbnail_url: `${CDN}/${PREFIX}/media/thumbnails/thumb0.jpg`,
      air_date: '2020-06-14T12:44:20.000Z',
    });
    expect(
      recordingEpisode(creator({ requiresSubscription: true }), ref, parse(ended()), place, CDN).access,
    ).toBe('premium');
    expect(
      recordingEpisode(creator({ liveTitle: 'Album launch' }), ref, parse(ended()), place, CDN).title,
    ).toBe('Album launch');
  });

  it('prefers the LATEST thumbnail, and falls back to the creator when the recording has none', () => {
    const latest = ended({ latest_thumbnail: { path: 'media/latest_thumbnail/thumb.jpg' } });
    expect(recordingEpisode(creator(), ref, parse(latest), place, CDN).thumbnail_url).toBe(
      `${CDN}/${PREFIX}/media/latest_thumbnail/thumb.jpg`,
    );
    const none = ended();
    delete (none.media as { thumbnails?: unknown }).thumbnails;
    expect(recordingEpisode(creator(), ref, parse(none), place, CDN).thumbnail_url).toBe(
      `${CDN}/thumbnails/live.jpg`,
    );
  });

  it('has one id per stream', () => {
    expect(recordingEpisodeId('st-1')).toBe(recordingEpisodeId('st-1'));
    expect(recordingEpisodeId('st-1')).not.toBe(recordingEpisodeId('st-2'));
    expect(recordingEpisodeId('st-1')).toMatch(/^ep_[0-9a-f]{12}$/);
  });
});

describe('dvrUrlOf', () => {
  const recording: LiveRecording = {
    stream_id: 'st-1',
    bucket: 'recordings',
    prefix: PREFIX,
    playlist_key: `${PREFIX}/media/hls/master.m3u8`,
    started_ms: 0,
  };
  const live = { stream_id: 'st-1', title: 't', started_at: '2020-06-14T12:44:20Z', thumbnail_url: 'x' };

  it("is the recording's master playlist while its stream is live, else undefined", () => {
    expect(dvrUrlOf({ live, live_recording: recording }, CDN)).toBe(mediaUrlOf(recording.playlist_key, CDN));
    expect(dvrUrlOf({ live, live_recording: recording }, CDN)).toBe(`${CDN}/${PREFIX}/media/hls/master.m3u8`);
    expect(dvrUrlOf({ live: null, live_recording: recording }, CDN)).toBeUndefined();
    expect(
      dvrUrlOf({ live: { ...live, stream_id: 'st-2' }, live_recording: recording }, CDN),
    ).toBeUndefined();
    expect(dvrUrlOf({ live }, CDN)).toBeUndefined();
  });
});
