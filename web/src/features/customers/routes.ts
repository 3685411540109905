// Type-safe URLs of the customers screens: filters and pages live in the URL, so every list is a
// link that can be shared or reloaded.
export type CustomersQuery = {
  q?: string;
  status?: string;
  size?: number;
  after?: string;
  before?: string;
};

export const PAGE_SIZES = [25, 50, 100] as const;

export function customersUrl(query: CustomersQuery = {}): string {
  const params = new URLSearchParams();
  if (query.q) params.set('q', query.q);
  if (query.status) params.set('status', query.status);
  if (query.size && query.size !== 25) params.set('size', String(query.size));
  if (query.after) params.set('after', query.after);
  if (query.before) params.set('before', query.before);
  const text = params.toString();
  return `/customers${text ? `?${text}` : ''}`;
}

export function parseCustomersQuery(
  search: string,
): Required<Pick<CustomersQuery, 'size'>> & CustomersQuery {
  const params = new URLSearchParams(search);
  const size = Number(params.get('size'));
  return {
    q: params.get('q') ?? undefined,
    status: params.get('status') ?? undefined,
    size: (PAGE_SIZES as readonly number[]).includes(size) ? size : 25,
    after: params.get('after') ?? undefined,
    before: params.get('before') ?? undefined,
  };
}

export const customerUrl = (id: string) => `/customers/${encodeURIComponent(id)}`;
export const bulkAdjustUrl = () => '/customers/bulk';
export const importUrl = () => '/customers/import';

/** The streamed CSV of the list as filtered on screen (GET /admin/api/customers.csv). */
export function exportUrl(
  query: CustomersQuery,
  tenant: { subBrandId: string | null; environment: string },
): string {
  const params = new URLSearchParams({ environment: tenant.environment });
  if (tenant.subBrandId) params.set('subBrandId', tenant.subBrandId);
  if (query.q) params.set('q', query.q);
  if (query.status) params.set('status', query.status);
  return `/admin/api/customers.csv?${params.toString()}`;
}
