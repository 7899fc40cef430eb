/** The states of an account's data export (docs/accounts.md "Export"): data, for the schemas and the repository. */
export const EXPORT_STATUSES = ['pending', 'ready', 'failed'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

/** An export as `POST/GET /me/export` answer it; `url` (a presigned download, or null) is valid `urlSeconds` from `now`. */
export const exportView = (
  record: { export_id: string; status: ExportStatus; requested_at: string; ready_at?: string },
  url: string | null,
  now: Date,
  urlSeconds = 0,
) => ({
  export_id: record.export_id,
  status: record.status,
  requested_at: record.requested_at,
  ready_at: record.ready_at ?? null,
  url,
  url_expires_at: url ? new Date(now.getTime() + urlSeconds * 1000).toISOString() : null,
});
