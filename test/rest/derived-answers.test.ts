// Issue 30: a route's answer is derived from its GraphQL operation (rest/wire-answer.ts). What is
// left to drift, this test holds:
// - a row that still writes its answer by hand (a real value mapping) agrees, field by field,
//   with what its operation answers: a field the schema makes nullable, or of another type, is a
//   disagreement (a fixture shows one caught);
// - a row answered by reference renders a replay with a second operation: it must derive the same
//   answer as the first, or a replay would differ from the original;
// - the wire itself: each row's answer fields, names and types, are kept in a lock file, so a
//   renamed GraphQL field cannot change the partner contract unnoticed (update it on purpose, with
//   the contract version: `npx vitest run test/rest/derived-answers.test.ts -u`).
// The answers themselves are checked against these schemas by the contract test.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jsonSchema } from '../../src/rest/openapi.js';
import type { Route } from '../../src/rest/route.js';
import { ROUTES } from '../../src/rest/table.js';
import { deriveAnswer, fragment, neverNull, wireRecord } from '../../src/rest/wire-answer.js';

type Json = {
  type?: string | string[];
  anyOf?: Json[];
  properties?: Record<string, Json>;
  items?: Json;
  enum?: string[];
  $ref?: string;
  $defs?: Record<string, Json>;
};

/** A kind that may also be null: `string?`, an object with a `?` key, a list ending in `?`. */
function orNull(kind: unknown): unknown {
  if (Array.isArray(kind)) return [...kind, '?'];
  if (typeof kind === 'object' && kind) return { ...kind, '?': true };
  return String(kind).endsWith('?') ? kind : `${String(kind)}?`;
}

/** A schema as a tree of kinds: `integer`, `string?` (nullable), `{…}`, `[…]`. */
function kindOf(schema: Json, defs: Record<string, Json>): unknown {
  if (schema.$ref) return kindOf(defs[schema.$ref.split('/').pop()!]!, defs);
  // Nullable is `anyOf: [x, {type: null}]` or `type: [x, 'null']`.
  const variants = (schema.anyOf ?? [schema])
    .map((v) => (Array.isArray(v.type) ? v.type.map((type) => ({ ...v, type })) : [v]))
    .flat();
  const nullable = variants.some((v) => v.type === 'null');
  const [value] = variants.filter((v) => v.type !== 'null');
  if (!value) return 'null';
  const kind = value.$ref
    ? kindOf(value, defs)
    : value.properties
      ? Object.fromEntries(Object.entries(value.properties).map(([k, v]) => [k, kindOf(v, defs)]))
      : value.items
        ? [kindOf(value.items, defs)]
        : value.enum
          ? [...value.enum].sort().join('|')
          : String(value.type ?? 'any');
  return nullable ? orNull(kind) : kind;
}

const kinds = (schema: z.ZodType) => {
  const json = jsonSchema(schema, 'output') as Json;
  return kindOf(json, json.$defs ?? {});
};

/**
 * Hand-written answers that narrow what the schema allows, each with why it holds (a disagreement
 * the test accepts).
 */
const NARROWED: Record<string, string> = {
  'send_order deliveryCapturedAt': 'sending captures the delivery details: it is set once sent',
};

/**
 * Where the hand-written kinds and the derived ones disagree, on the fields both have. JSON
 * (`any`) is the caller's own and agrees with anything; a row that reshapes a list into a record
 * (or back) shares no fields with its operation at that level.
 */
function disagreements(written: unknown, derived: unknown, at = ''): string[] {
  if (typeof derived === 'string' && derived.startsWith('any')) return [];
  if (typeof written === 'object' && written && typeof derived === 'object' && derived) {
    if (Array.isArray(written) !== Array.isArray(derived)) return [];
    const mayBeNull = (kind: object) => (Array.isArray(kind) ? kind.at(-1) === '?' : '?' in kind);
    const says = (kind: object) => (mayBeNull(kind) ? 'nullable' : 'non-null');
    if (says(written) !== says(derived))
      return [`${at}: written ${says(written)}, the operation answers ${says(derived)}`];
    return Object.keys(written).flatMap((k) =>
      k in derived
        ? disagreements(
            (written as Record<string, unknown>)[k],
            (derived as Record<string, unknown>)[k],
            at ? `${at}.${k}` : k,
          )
        : [],
    );
  }
  // Enums compare as strings here (a row may answer a subset); the lock file keeps their values.
  const norm = (kind: unknown) => {
    const base = String(kind).replace(/\?$/, '');
    const nullable = String(kind).endsWith('?') ? '?' : '';
    // Integers and numbers are one kind: JSON has one number.
    if (base === 'number') return `integer${nullable}`;
    return `${/^(string|integer|boolean|null)$/.test(base) ? base : 'string'}${nullable}`;
  };
  if (typeof written === 'string' && typeof derived === 'string' && norm(written) !== norm(derived))
    return [`${at}: written ${written}, the operation answers ${derived}`];
  return [];
}

/** A hand-written row's disagreements; null when its operation has no single answer to derive. */
function checkWritten(
  route: Pick<Route, 'family' | 'operation' | 'paginated' | 'response'> & { name?: string },
) {
  let derived;
  try {
    derived = deriveAnswer(route).response;
  } catch {
    return null;
  }
  return disagreements(kinds(route.response), kinds(derived)).filter(
    (p) => !(`${route.name ?? ''} ${p.split(':')[0]}` in NARROWED),
  );
}

const adjustCoins = ROUTES.find((r) => r.name === 'adjust_customer_coins')!;

describe('derived answers', () => {
  it('hand-written answers agree with their operations on every field they share', () => {
    const found: string[] = [];
    let compared = 0;
    for (const route of ROUTES) {
      const problems = checkWritten(route);
      if (problems === null) continue;
      compared++;
      found.push(...problems.map((p) => `${route.name} ${p}`));
    }
    expect(found).toEqual([]);
    expect(compared).toBeGreaterThan(50);
  });

  it('would catch a hand-written answer that drifted from its operation (a fixture)', () => {
    const drifted = z.object({
      id: z.uuid(),
      balance_after: z.string(),
      reason: z.string(),
      source: z.string(),
    });
    expect(checkWritten({ ...adjustCoins, response: drifted })).toEqual([
      'balance_after: written string, the operation answers integer',
      'reason: written string, the operation answers string?',
    ]);
  });

  it('a record’s wire values change the fields they name and no other (a fixture)', () => {
    const fields = 'held balance lots { id }';
    const plain = wireRecord('establishment', fragment('PlainCoins', 'CoinBalance', fields));
    const keyed = wireRecord(
      'establishment',
      fragment('KeyedCoins', 'CoinBalance', fields, [], {
        values: {
          held: neverNull('Held.'),
          lots: () => ({ schema: z.record(z.string(), z.literal(true)), map: () => ({ a: true }) }),
        },
      }),
    );
    expect(kinds(plain.schema)).toEqual({
      held: 'integer?',
      balance: 'integer',
      lots: [{ id: 'string' }],
    });
    expect(kinds(keyed.schema)).toEqual({ held: 'integer', balance: 'integer', lots: 'object' });
    const value = { held: 3, balance: 5, lots: [{ id: 'x' }] };
    expect(plain.map(value)).toEqual(value);
    expect(keyed.map(value)).toEqual({ held: 3, balance: 5, lots: { a: true } });
  });

  it('a spread field’s record stands beside the record’s own fields (a fixture)', () => {
    const flat = wireRecord(
      'establishment',
      fragment('FlatOrder', 'Order', 'id shortAddress: delivery { town: city country }', [], {
        spread: ['shortAddress'],
      }),
    );
    expect(kinds(flat.schema)).toEqual({ id: 'string', town: 'string?', country: 'string?' });
    expect(flat.map({ id: 'o', shortAddress: { town: 'Lugo', country: 'ES' } })).toEqual({
      id: 'o',
      town: 'Lugo',
      country: 'ES',
    });
    // Only a record that is always there can stand beside: a list (or a nullable field) cannot.
    expect(() =>
      wireRecord(
        'establishment',
        fragment('FlatLots', 'CoinBalance', 'balance lots { id }', [], { spread: ['lots'] }),
      ),
    ).toThrow(/spread/);
  });

  it('a replay by reference derives the same answer as the operation it stands for', () => {
    const byReference = ROUTES.filter((r) => r.answerByReference);
    expect(byReference.length).toBeGreaterThan(0);
    for (const route of byReference) {
      const replay = deriveAnswer({ ...route, operation: route.answerByReference!.operation });
      expect(kinds(replay.response), route.name).toEqual(kinds(deriveAnswer(route).response));
    }
    // The fixture: a replay query that selects one field fewer is caught.
    const short = adjustCoins.answerByReference!.operation.replace(
      /fragment CoinMovement on CoinMovement \{ id /,
      'fragment CoinMovementShort on CoinMovement { ',
    );
    expect(short).not.toEqual(adjustCoins.answerByReference!.operation);
    const drifted = deriveAnswer({
      ...adjustCoins,
      operation: short.replaceAll('...CoinMovement', '...CoinMovementShort'),
    });
    expect(kinds(drifted.response)).not.toEqual(kinds(adjustCoins.response));
  });

  it('the wire answers keep their fields: changes are made on purpose', async () => {
    const wire = Object.fromEntries(
      ROUTES.map((r) => [`${r.name}${r.paginated ? '[]' : ''}`, kinds(r.response)]),
    );
    await expect(JSON.stringify(wire, null, 1)).toMatchFileSnapshot('./wire-answers.lock.json');
  });
});
