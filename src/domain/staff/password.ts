// Passwords: argon2id (OWASP's first choice) with the library's defaults (19 MiB, t=2, p=1), and
// the rules of NIST SP 800-63B §3.1.1.2 for choosing one (issue 29, G3): at least 12 characters,
// not only whitespace, no composition rules, and refused when it repeats or follows a sequence or
// is common: checked with zxcvbn-ts and its list of common and breached passwords (the
// `@zxcvbn-ts/language-common` package), which also finds one built from a listed password
// ("letmein12345", "P@ssw0rd1234"). A refusal says which rule.
import { hash, verify } from '@node-rs/argon2';
import type { FieldIssue } from '../errors.js';

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 200;

/** zxcvbn's score: 3 is "safely unguessable" (≥ 10^8 guesses, an online attack's reach). */
const MIN_SCORE = 3;

type Checker = { check(password: string): Match };
type Match = {
  score: number;
  sequence: { pattern: string; token: string; dictionaryName?: string }[];
};

/** The dictionaries are ~2 MB: loaded on the first password chosen, not at start-up. */
let checker: Promise<Checker> | undefined;
const loadChecker = () =>
  (checker ??= (async () => {
    const [{ ZxcvbnFactory }, common] = await Promise.all([
      import('@zxcvbn-ts/core'),
      import('@zxcvbn-ts/language-common'),
    ]);
    return new ZxcvbnFactory({
      dictionary: { ...common.dictionary },
      graphs: common.adjacencyGraphs,
    }) as unknown as Checker;
  })());

/** Each character one step after (or before) the one before it: 123456789012, abcdefghijkl. */
function isSequence(password: string): boolean {
  const step = (a: string, b: string) => {
    const cycle = /\d/.test(a) ? 10 : 26;
    const base = /\d/.test(a) ? 48 : a === a.toLowerCase() ? 97 : 65;
    return (b.charCodeAt(0) - base - (a.charCodeAt(0) - base) + cycle) % cycle;
  };
  if (!/^(\d+|[a-z]+|[A-Z]+)$/.test(password)) return false;
  const first = step(password[0]!, password[1]!);
  if (first !== 1 && first !== (/\d/.test(password) ? 9 : 25)) return false;
  return [...password].every((c, i) => i === 0 || step(password[i - 1]!, c) === first);
}

const ADVICE = 'choose one nobody would guess, a few unrelated words for example';

/**
 * Why `password` may not be chosen (the rule, and words for the person choosing it), or null
 * when it may.
 */
export async function passwordProblem(password: string): Promise<FieldIssue | null> {
  const refused = (code: FieldIssue['code'], message: string) => ({
    field: 'password',
    code,
    message,
  });
  if (password.length < MIN_PASSWORD_LENGTH)
    return refused('too_small', `must be at least ${MIN_PASSWORD_LENGTH} characters long`);
  if (password.length > MAX_PASSWORD_LENGTH)
    return refused('too_big', `must be at most ${MAX_PASSWORD_LENGTH} characters long`);
  if (!password.trim()) return refused('blank', 'must not be only spaces');
  if (/^(.+?)\1+$/su.test(password))
    return refused(
      'invalid',
      'must not be one character or group of characters repeated (like aaaaaaaaaaaa)',
    );
  if (isSequence(password))
    return refused('invalid', 'must not be a sequence (like 123456789012 or abcdefghijkl)');
  const match = (await loadChecker()).check(password);
  if (match.score >= MIN_SCORE) return null;
  const listed = match.sequence.filter((m) => m.dictionaryName === 'passwords-common');
  if (listed.length)
    return refused(
      'invalid',
      'is a common password, or is built from one, found in lists of breached passwords ' +
        `(${listed.map((m) => JSON.stringify(m.token)).join(' + ')}): ${ADVICE}`,
    );
  if (match.sequence.some((m) => m.pattern === 'spatial'))
    return refused('invalid', `follows the keys of a keyboard: ${ADVICE}`);
  if (match.sequence.some((m) => m.pattern === 'repeat' || m.pattern === 'sequence'))
    return refused('invalid', `repeats or follows a sequence: ${ADVICE}`);
  return refused('invalid', `is too easy to guess: ${ADVICE}`);
}

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
