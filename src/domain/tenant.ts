import type { Environment } from '../generated/prisma/enums.js';

/** Whose data: a sub-brand in one environment. Every tenant-owned query filters on both. */
export type Tenant = { subBrandId: string; environment: Environment };

/** Who caused a write, recorded on what it writes. */
export type Actor = {
  apiKeyId: string | null;
  requestId: string | null;
  /** The staff member, when the write came from the backoffice. */
  staffUserId?: string | null;
};
