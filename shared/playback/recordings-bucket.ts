import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { awsClient, perContainer } from '../aws/local-hook.ts';

const s3 = /* @__PURE__ */ perContainer(() => awsClient(new S3Client({}), 's3'));

/**
 * An object of the recordings bucket (IVS writes it; `recordings-reader` rows may read it) as
 * text; S3's errors (NoSuchKey, AccessDenied...) are thrown.
 */
export const readRecordingsObject = async (bucket: string, key: string): Promise<string> => {
  const { Body } = await s3().send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  if (!Body) throw new Error(`s3://${bucket}/${key} has no body`);
  return Body.transformToString('utf8');
};
