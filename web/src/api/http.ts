// The backoffice's sign-in API (/admin/api/*): plain JSON over fetch, errors with the API's
// message and request id.
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly requestId: string | null,
    readonly status: number,
  ) {
    super(message);
  }
}

export type StaffRole = 'platform_admin' | 'brand_admin' | 'establishment_operator' | 'support';
export type SubBrandChoice = { id: string; name: string; brandName: string; isPlatform: boolean };
export type SessionInfo = {
  staff: {
    id: string;
    email: string;
    role: StaffRole;
    brandId: string | null;
    subBrandId: string | null;
  };
  csrfToken: string;
  subBrands: SubBrandChoice[];
  /** Whether the server serves GraphiQL to staff (not in production). */
  graphiql: boolean;
};

async function send<T>(
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  csrf?: string,
): Promise<T> {
  const res = await fetch(`/admin/api${path}`, {
    method,
    credentials: 'same-origin',
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(csrf ? { 'x-csrf-token': csrf } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status === 204) return undefined as T;
  const json = (await res.json().catch(() => null)) as
    (T & { error?: { code: string; message: string; request_id?: string } }) | null;
  if (!res.ok || !json) {
    throw new ApiError(
      json?.error?.message ?? `The server answered ${res.status}.`,
      json?.error?.code ?? 'error',
      json?.error?.request_id ?? res.headers.get('x-request-id'),
      res.status,
    );
  }
  return json;
}

export const signIn = (email: string, password: string) =>
  send<SessionInfo>('POST', '/sign-in', { email, password });
export const currentSession = () => send<SessionInfo>('GET', '/session');
export const signOut = (csrf: string) => send<void>('POST', '/sign-out', undefined, csrf);
export const signOutEverywhere = (csrf: string) =>
  send<{ ended: number }>('POST', '/sign-out-everywhere', undefined, csrf);
