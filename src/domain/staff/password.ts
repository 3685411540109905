// Passwords: argon2id (OWASP's first choice) with the library's defaults (19 MiB, t=2, p=1).
import { hash, verify } from '@node-rs/argon2';

export const MIN_PASSWORD_LENGTH = 12;

export const hashPassword = (password: string): Promise<string> => hash(password);

/** A hash of nothing in particular: verifying against it costs what a real check costs. */
let decoy: Promise<string> | undefined;

/**
 * True when the password matches. With no stored hash (unknown e-mail) it still spends the time
 * of one verification, so response times do not tell which e-mails have accounts.
 */
export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (!stored) {
    decoy ??= hash('decoy password that matches nothing');
    await verify(await decoy, password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
}
