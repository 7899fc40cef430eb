import { awsClient, perContainer } from '../aws/local-hook.ts';
import { setting } from '../config.ts';

/**
 * Export documents in the exports bucket (EXPORTS_BUCKET; infra/accounts.ts: private, encrypted,
 * TLS only, objects expire after a day). A reader gets a presigned GET URL valid for
 * EXPORT_URL_SECONDS; the URL acts with the signer's grant (s3:GetObject on the bucket's objects).
 * The SDK reaches the local S3 stand-in through AWS_ENDPOINT_URL_S3 (scripts/local/s3.ts).
 */
export const EXPORT_URL_SECONDS = 3600;

const s3 = /* @__PURE__ */ perContainer(() =>
  import('@aws-sdk/client-s3').then((sdk) => ({ sdk, client: awsClient(new sdk.S3Client({}), 's3') })),
);

/** Writes one export document (JSON) under `key`. */
export const putExportDocument = async (key: string, document: unknown): Promise<void> => {
  const { sdk, client } = await s3();
  await client.send(
    new sdk.PutObjectCommand({
      Bucket: setting('EXPORTS_BUCKET'),
      Key: key,
      Body: JSON.stringify(document),
      ContentType: 'application/json',
    }),
  );
};

/** Deletes an export document (idempotent). */
export const deleteExportDocument = async (key: string): Promise<void> => {
  const { sdk, client } = await s3();
  await client.send(new sdk.DeleteObjectCommand({ Bucket: setting('EXPORTS_BUCKET'), Key: key }));
};

/** A URL that GETs the document for EXPORT_URL_SECONDS, as a download named `filename`. */
export const exportDocumentUrl = async (key: string, filename: string): Promise<string> => {
  const [{ sdk, client }, { getSignedUrl }] = await Promise.all([
    s3(),
    import('@aws-sdk/s3-request-presigner'),
  ]);
  return getSignedUrl(
    client,
    new sdk.GetObjectCommand({
      Bucket: setting('EXPORTS_BUCKET'),
      Key: key,
      ResponseContentDisposition: `attachment; filename="${filename}"`,
    }),
    { expiresIn: EXPORT_URL_SECONDS },
  );
};
