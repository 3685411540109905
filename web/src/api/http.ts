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
  /** `setup_required`: the brand requires a second factor this account has not set up yet. */
  twoFactor: 'on' | 'off' | 'setup_required';
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

/** With two-factor on, a right password answers `twoFactorRequired`: send it again with a code. */
export const signIn = (email: string, password: string, code?: string) =>
  send<SessionInfo | { twoFactorRequired: true }>('POST', '/sign-in', {
    email,
    password,
    ...(code ? { code } : {}),
  });
export const currentSession = () => send<SessionInfo>('GET', '/session');
export const signOut = (csrf: string) => send<void>('POST', '/sign-out', undefined, csrf);
export const signOutEverywhere = (csrf: string) =>
  send<{ ended: number }>('POST', '/sign-out-everywhere', undefined, csrf);

export type TwoFactorState = {
  enabled: boolean;
  enabledAt: string | null;
  requiredByBrand: boolean;
  recoveryCodesLeft: number;
};
export const twoFactorState = () => send<TwoFactorState>('GET', '/two-factor');
export const beginTwoFactor = (csrf: string) =>
  send<{ secret: string; uri: string; qrSvg: string }>('POST', '/two-factor/setup', {}, csrf);
export const enableTwoFactor = (csrf: string, code: string) =>
  send<{ recoveryCodes: string[]; session: SessionInfo | null }>(
    'POST',
    '/two-factor/enable',
    { code },
    csrf,
  );
export const newRecoveryCodes = (csrf: string, code: string) =>
  send<{ recoveryCodes: string[] }>('POST', '/two-factor/recovery-codes', { code }, csrf);
export const disableTwoFactor = (csrf: string, code: string) =>
  send<void>('POST', '/two-factor/disable', { code }, csrf);

/** An invitation's or a password reset's link (the token is the link's #fragment). */
export const checkLink = (token: string) =>
  send<{ email: string; kind: 'invitation' | 'password_reset' }>('POST', '/invitation/check', {
    token,
  });
export const acceptLink = (token: string, password: string) =>
  send<SessionInfo | { twoFactorRequired: true; email: string }>('POST', '/invitation/accept', {
    token,
    password,
  });
