// The establishment API's player is the partner API's customer: one row, one wallet. A player
// has one `name`; a customer has first and last names. The name is split at its first white
// space ("Ana María García" → "Ana" + "María García") and joined back with one space, so what a
// client writes it reads back (up to runs of white space). A one-word name ("Madonna") is a first
// name with an empty last name: the partner API shows last_name "" for it.
import { z } from 'zod';
import type { Db } from '../db.js';
import type { Tenant } from '../tenant.js';
import { nonBlankText, parseInput } from '../validation.js';
import { createCustomer } from './create-customer.js';
import { CUSTOMER_STATUSES, createCustomerInput, updateCustomerInput } from './schemas.js';
import { updateCustomer } from './update-customer.js';

export function splitName(name: string): { firstName: string; lastName: string } {
  const [first = '', ...rest] = name.trim().split(/\s+/);
  return { firstName: first, lastName: rest.join(' ') };
}

export const joinName = (firstName: string, lastName: string): string =>
  lastName ? `${firstName} ${lastName}` : firstName;

const name = nonBlankText(241).refine((v) => {
  const { firstName, lastName } = splitName(v);
  return firstName.length <= 120 && lastName.length <= 120;
}, 'must have a first word and a rest of at most 120 characters each');

const email = z.email().max(255).nullish();
const status = z.enum(CUSTOMER_STATUSES);

export const createPlayerInput = z.strictObject({ name, email, status: status.optional() });
/** A player update re-sends name and status; an omitted e-mail stays, null clears it. */
export const updatePlayerInput = z.strictObject({ name, email, status });

const lastName = z.string().max(120);
const asCustomer = createCustomerInput.extend({ lastName });
const asCustomerUpdate = updateCustomerInput.extend({ lastName: lastName.optional() });

export async function createPlayer(
  db: Db,
  tenant: Tenant,
  input: z.input<typeof createPlayerInput>,
) {
  const data = parseInput(createPlayerInput, input);
  return createCustomer(
    db,
    tenant,
    { ...splitName(data.name), email: data.email, status: data.status },
    asCustomer,
  );
}

export async function updatePlayer(
  db: Db,
  tenant: Tenant,
  id: string,
  input: z.input<typeof updatePlayerInput>,
) {
  const data = parseInput(updatePlayerInput, input);
  return updateCustomer(
    db,
    tenant,
    id,
    { ...splitName(data.name), email: data.email, status: data.status },
    asCustomerUpdate,
  );
}
