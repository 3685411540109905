// An order's human code: `R-` and 8 characters of Crockford's base32 (no I, L, O, U), easy to
// read out on the phone. 40 random bits: unique per sub-brand by index; a clash (about one in a
// million at a million orders) fails that one reservation, which the caller may retry.
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export function newReference(): string {
  const bytes = randomBytes(8);
  let code = '';
  for (let i = 0; i < 8; i++) code += ALPHABET[bytes[i]! & 31];
  return `R-${code}`;
}
