import { NotFoundError } from '../errors/errors.ts';
import { exportView } from './export-model.ts';
import { getExport } from './export-repository.ts';
import { EXPORT_URL_SECONDS, exportDocumentUrl } from './export-store.ts';

/** `GET /me/export`: the latest export with, once ready, a presigned URL (404 when none was requested). */
export const exportStatus = async (accountId: string, now: Date) => {
  const record = await getExport(accountId);
  if (!record) throw new NotFoundError('No export of this account was requested');
  const url =
    record.status === 'ready' && record.object_key
      ? await exportDocumentUrl(record.object_key, `account-export-${record.requested_at.slice(0, 10)}.json`)
      : null;
  return exportView(record, url, now, EXPORT_URL_SECONDS);
};
