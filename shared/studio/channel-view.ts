import { ingestUrlOf } from '../ivs/channel-repository.ts';
import type { StudioChannel } from './channel-schemas.ts';
import type { StudioChannelState } from './channel-writes.ts';

/** The studio's answer for a channel (shared/studio/channel-schemas.ts). Pure. */
export const studioChannel = (state: StudioChannelState): StudioChannel => ({
  channel_arn: state.channel.channel_arn,
  ingest_endpoint: state.channel.ingest_endpoint,
  ingest_url: ingestUrlOf(state.channel.ingest_endpoint),
  stream_key: state.streamKey,
  playback_url: state.channel.playback_url,
  chat_room_arn: state.channel.chat_room_arn ?? null,
  latency_mode: 'low',
  is_live: state.live !== null,
  stream: state.live
    ? { stream_id: state.live.stream_id, title: state.live.title, started_at: state.live.started_at }
    : null,
  stream_health: state.live ? (state.health === 'starving' ? 'starving' : 'healthy') : 'offline',
});

/** The stream key is a secret: no cache may keep an answer that carries it. */
export const NO_STORE = { 'cache-control': 'no-store' };
