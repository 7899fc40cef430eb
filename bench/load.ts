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

/**
 * A bench's own table with the demo catalogue (seed 42), for the benches that drive the live
 * write paths in process (bench/cost.ts, bench/capacity.ts): the table created on `endpoint`, the
 * catalogue loaded with the stream off (`loadWithoutStream`), and its first free live channel
 * given an IVS channel named `label` (what the local platform provisions through its IVS
 * stand-in). IVS itself is a stub answering every call (the DELETE's revocation) with 200, at the
 * SDK's AWS_ENDPOINT_URL_IVS; `close` stops it. Call after the process's TABLE_NAME is set.
 */
export const seedLiveTable = async (
  endpoint: string,
  label: string,
  options: { streamAfter?: boolean } = {},
) => {
  const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  const { createServer } = await import('node:http');
  const { createTable } = await import('../shared/db/create-table.ts');
  const { generateCatalog } = await import('../scripts/seed/generate.ts');
  const { loadCatalog } = await import('../scripts/seed/load.ts');
  const admin = new DynamoDBClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'l', secretAccessKey: 'l' },
  });
  const tableName = process.env.TABLE_NAME!;
  await createTable(admin, tableName);
  const seededAt = new Date();
  const catalog = generateCatalog({ now: seededAt, seed: 42 });
  const liveCreator = catalog.creators.find((c) => c.live && !c.channel.requires_subscription)!;
  liveCreator.ivs = {
    channel_arn: `arn:aws:ivs:local:000000000000:channel/${label}`,
    playback_url: `https://${label}.local.playback.live-video.net/api/video/v1/${label}.m3u8`,
    ingest_endpoint: `${label}.global-contribute.live-video.net`,
  };
  const ivsStub = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}'),
  );
  await new Promise<void>((listening) => ivsStub.listen(0, '127.0.0.1', listening));
  process.env.AWS_ENDPOINT_URL_IVS = `http://127.0.0.1:${(ivsStub.address() as import('node:net').AddressInfo).port}`;
  await loadWithoutStream(admin, tableName, () => loadCatalog(catalog, seededAt), options);
  return { admin, tableName, seededAt, catalog, liveCreator, close: () => ivsStub.close() };
};
