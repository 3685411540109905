// Issue 29, G3: staff passwords follow NIST SP 800-63B: long enough, not only spaces, not
// repeated or sequential, not common or breached (zxcvbn-ts's list), no composition rules; the
// refusal names the rule.
import { describe, expect, it } from 'vitest';
import { passwordProblem } from '../../src/domain/staff/password.js';
import { createStaffUser } from '../../src/domain/staff/staff-users.js';
import { AppError } from '../../src/domain/errors.js';
import { testDatabase } from '../support/harness.js';

describe('choosing a staff password', () => {
  it.each([
    ['twelve spaces', ' '.repeat(12), 'blank', /only spaces/],
    ['eleven characters', 'Tr0ub4dor&3', 'too_small', /at least 12 characters/],
    ['201 characters', 'x7Kq'.repeat(50) + 'z', 'too_big', /at most 200/],
    ['one letter repeated', 'aaaaaaaaaaaa', 'invalid', /repeated/],
    ['a group repeated', 'hunter2hunter2', 'invalid', /repeated/],
    ['digits in sequence', '123456789012', 'invalid', /sequence/],
    ['letters in sequence', 'abcdefghijkl', 'invalid', /sequence/],
    ['descending', 'zyxwvutsrqpo', 'invalid', /sequence/],
    ['a common password and digits', 'password1234', 'invalid', /common password.*"password"/],
    ['a breached one in leetspeak', 'P@ssw0rd1234', 'invalid', /breached passwords/],
    ['another breached one', 'letmein12345', 'invalid', /"letmein"/],
    ['a keyboard row', 'qwertyuiopas', 'invalid', /common|keyboard/],
  ])('refuses %s, naming the rule', async (_name, password, code, message) => {
    const problem = await passwordProblem(password);
    expect(problem).toMatchObject({ field: 'password', code });
    expect(problem!.message).toMatch(message);
  });

  it.each([
    'correct horse battery staple',
    'a long enough password',
    'hMA7x9Kq2pLw',
    'Ñandú azul sobre la nieve',
    'Tr0ub4dor&3xx',
  ])('accepts %j: no composition rule asks for digits or symbols', async (password) => {
    expect(await passwordProblem(password)).toBeNull();
  });

  it('an account is not created with a weak one, and the error names the field and the rule', async () => {
    const db = await testDatabase();
    const email = `weak-${Date.now()}@example.com`;
    const attempt = createStaffUser(db.prisma, {
      email,
      password: 'password1234',
      role: 'platform_admin',
    });
    await expect(attempt).rejects.toBeInstanceOf(AppError);
    await expect(attempt).rejects.toMatchObject({
      code: 'invalid_request',
      issues: [{ field: 'password', code: 'invalid' }],
    });
    expect(await db.prisma.staffUser.count({ where: { email } })).toBe(0);
  });
});
