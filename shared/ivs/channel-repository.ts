/**
 * Creators' IVS channels (docs/live.md "Channels on IVS"): what provisioning stores, and how an
 * IVS channel ARN (events, ListStreams) leads back to its creator.
 * - on the creator item (`CREATOR#<id>`/`PROFILE`): `ivs` = IvsChannel;
 * - lookup item PK `IVS#<channel arn>`, SK `CHANNEL`: `creator_id` (entity `ivs-channel`).
 * Both are written in one transaction, so a channel is either fully provisioned or not at all.
 */

import { GetCommand } from '../db/document.ts';
import { batchGet } from '../db/batch.ts';
import { db } from '../db/client.ts';
import { tableName } from '../db/table.ts';
import type { TransactOperation } from '../db/transaction.ts';

export type { IvsChannel } from '../catalog/model.ts';

const PREFIX = 'IVS#';

/** The key of the lookup item of an IVS channel. */
export const ivsChannelKey = (channelArn: string) => ({ PK: `${PREFIX}${channelArn}`, SK: 'CHANNEL' });

/** The lookup item of a creator's channel. */
export const ivsChannelItem = (channelArn: string, creatorId: string): Record<string, unknown> => ({
  ...ivsChannelKey(channelArn),
  entity: 'ivs-channel',
  creator_id: creatorId,
});

/**
 * The transaction operation putting the lookup of a creator's new channel, on condition that the
 * channel has none (shared/studio/channel-writes.ts writes it with the creator's `ivs`).
 */
export const putIvsChannelOperation = (channelArn: string, creatorId: string): TransactOperation => ({
  Put: {
    TableName: tableName(),
    Item: ivsChannelItem(channelArn, creatorId),
    ConditionExpression: 'attribute_not_exists(PK)',
  },
});

/** The creator owning an IVS channel, from its lookup item. */
export const getChannelOwner = async (channelArn: string): Promise<string | undefined> => {
  const { Item } = await db.send(
    new GetCommand({
      TableName: tableName(),
      Key: ivsChannelKey(channelArn),
      ProjectionExpression: 'creator_id',
    }),
  );
  return typeof Item?.creator_id === 'string' ? Item.creator_id : undefined;
};

/** The creators owning IVS channels, by channel ARN (channels without a lookup left out): one BatchGetItem per 100. */
export const getChannelOwners = async (channelArns: readonly string[]): Promise<Map<string, string>> =>
  new Map(
    (await batchGet(channelArns.map(ivsChannelKey))).map((item) => [
      String(item.PK).slice(PREFIX.length),
      String(item.creator_id),
    ]),
  );

/** Where an encoder sends the stream (RTMPS on port 443, IVS's documented ingest URL form). */
export const ingestUrlOf = (ingestEndpoint: string) => `rtmps://${ingestEndpoint}:443/app/`;
