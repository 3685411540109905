// The in-memory answers behind one-step replays: kept less long than the database row, bounded.
import { describe, expect, it } from 'vitest';
import { RecentAnswers } from '../../src/exactly-once/recent-answers.js';

const HOUR = 60 * 60 * 1000;
const answer = (n: number) => ({ status: 201, json: `{"n":${n}}` });

describe('recent idempotent answers', () => {
  it('answers until shortly before the database row expires, then forgets', () => {
    let now = 0;
    const recent = new RecentAnswers(24 * HOUR, () => now);
    recent.remember('k', 'hash', answer(1));
    now = 23 * HOUR;
    expect(recent.get('k')).toMatchObject({ status: 201, json: '{"n":1}', requestHash: 'hash' });
    now = 24 * HOUR - 1; // the row still lives, but the margin for clock skew has passed
    expect(recent.get('k')).toBeUndefined();
    expect(recent.size).toBe(0);
  });

  it('holds at most its bound, dropping the oldest first', () => {
    const recent = new RecentAnswers(24 * HOUR, Date.now, 3);
    for (let n = 1; n <= 5; n++) recent.remember(`k${n}`, 'h', answer(n));
    expect(recent.size).toBe(3);
    expect(recent.get('k1')).toBeUndefined();
    expect(recent.get('k2')).toBeUndefined();
    expect(recent.get('k5')?.json).toBe('{"n":5}');
  });

  it('does not keep a large answer', () => {
    const recent = new RecentAnswers(24 * HOUR);
    recent.remember('big', 'h', { status: 200, json: `"${'x'.repeat(20_000)}"` });
    expect(recent.get('big')).toBeUndefined();
  });
});
