// The report sources: what moved the coins, as reports name it (docs/reports.md). The ledger's
// movement source, except a hold's capture (an `api` debit with reason `hold:<id>`), reported as
// `hold`. The database's `report_source()` (migration coin_reports) says the same in SQL.
export const REPORT_SOURCES = [
  'api',
  'engine',
  'campaign',
  'bulk',
  'order',
  'refund',
  'expiry',
  'hold',
] as const;

export type ReportSource = (typeof REPORT_SOURCES)[number];
