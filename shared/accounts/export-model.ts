/** The states of an account's data export (docs/accounts.md "Export"): data, for the schemas and the repository. */
export const EXPORT_STATUSES = ['pending', 'ready', 'failed'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];
