import { type DynamoDBClient, UpdateTableCommand } from '@aws-sdk/client-dynamodb';
import { TABLE } from '../shared/db/table.ts';

/**
 * Runs `load` (the catalogue's writes) with the table's stream off, then turns the stream on again
 * (a new stream: readers started afterwards at LATEST, as the bench's are, see the same records).
 * DynamoDB Local looks up the stream's description on every write that has a stream to go to, and
 * that lookup grows with the records already streamed in the whole database: with the stream on,
 * the 10x catalogue (366,415 items) loaded at ~11 items/s after the 1x one (13,744 items in 20
 * minutes, load average ~15); nothing the bench measures reads the load's stream records.
 */
export const loadWithoutStream = async <T>(
  admin: DynamoDBClient,
  table: string,
  load: () => Promise<T>,
  options: { streamAfter?: boolean } = {},
): Promise<T> => {
  await admin.send(
    new UpdateTableCommand({ TableName: table, StreamSpecification: { StreamEnabled: false } }),
  );
  const result = await load();
  if (options.streamAfter !== false)
    await admin.send(
      new UpdateTableCommand({
        TableName: table,
        StreamSpecification: { StreamEnabled: true, StreamViewType: TABLE.streamViewType },
      }),
    );
  return result;
};
