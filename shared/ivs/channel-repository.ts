/**
 * Creators' IVS channels (docs/live.md "Channels on IVS"): what provisioning stores, and how an
 * IVS channel ARN (events, ListStreams) leads back to its creator.
 * - on the creator item (`CREATOR#<id>`/`PROFILE`): `ivs` = IvsChannel;
 * - lookup item PK `IVS#<channel arn>`, SK `CHANNEL`: `creator_id` (entity `ivs-channel`).
 * Both are written in one transaction, so a channel is either fully provisioned or not at all.
 */

export type { IvsChannel } from '../catalog/model.ts';

/** The key of the lookup item of an IVS channel. */
export const ivsChannelKey = (channelArn: string) => ({ PK: `IVS#${channelArn}`, SK: 'CHANNEL' });

/** The lookup item of a creator's channel. */
export const ivsChannelItem = (channelArn: string, creatorId: string): Record<string, unknown> => ({
  ...ivsChannelKey(channelArn),
  entity: 'ivs-channel',
  creator_id: creatorId,
});

/** Where an encoder sends the stream (RTMPS on port 443, IVS's documented ingest URL form). */
export const ingestUrlOf = (ingestEndpoint: string) => `rtmps://${ingestEndpoint}:443/app/`;
