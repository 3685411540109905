// Staff fixtures: an account made through the domain function the CLI uses, and a client that
// signs in over HTTP and then talks GraphQL with the session cookie and the CSRF token, as the
// backoffice does.
import type { Db } from '../../src/domain/db.js';
import type { StaffRole } from '../../src/domain/staff/roles.js';
import { createStaffUser } from '../../src/domain/staff/staff-users.js';
import { formHeaders } from './graphql.js';
import { call, type Reply } from './harness.js';

let counter = 0;
export const STAFF_PASSWORD = 'correct horse battery staple';

export async function createStaff(
  db: Db,
  role: StaffRole,
  tenant: { brandId?: string; subBrandId?: string } = {},
) {
  const email = `staff${++counter}-${Date.now()}@example.com`;
  const user = await createStaffUser(db, {
    email,
    password: STAFF_PASSWORD,
    role,
    brandId: tenant.brandId ?? null,
    subBrandId: tenant.subBrandId ?? null,
  });
  return { ...user, password: STAFF_PASSWORD };
}

export type StaffClient = {
  cookie: string;
  csrf: string;
  signIn: Reply;
  gql(
    query: string,
    variables?: Record<string, unknown>,
    options?: { subBrandId?: string; env?: 'live' | 'test'; csrf?: string | null },
  ): Promise<Reply>;
  post(path: string, options?: { csrf?: string | null }): Promise<Reply>;
};

export async function signInAs(
  base: string,
  email: string,
  password = STAFF_PASSWORD,
): Promise<StaffClient> {
  const signIn = await call(base, 'POST', '/admin/api/sign-in', { body: { email, password } });
  if (signIn.status !== 200) throw new Error(`sign-in failed: ${signIn.status} ${signIn.text}`);
  const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
  const csrf: string = signIn.body.csrfToken;
  const headersFor = (token: string | null | undefined) => ({
    cookie,
    ...(token === null ? {} : { 'x-csrf-token': token ?? csrf }),
  });
  return {
    cookie,
    csrf,
    signIn,
    gql: (query, variables = {}, options = {}) =>
      call(base, 'POST', '/graphql', {
        body: { query, variables },
        headers: {
          ...headersFor(options.csrf),
          ...formHeaders(query),
          'x-environment': options.env ?? 'test',
          ...(options.subBrandId ? { 'x-sub-brand-id': options.subBrandId } : {}),
        },
      }),
    post: (path, options = {}) => call(base, 'POST', path, { headers: headersFor(options.csrf) }),
  };
}
