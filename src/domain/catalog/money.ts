// Money on the establishment wire is in major units (the document's `…InEuros`, 12.34); the
// database keeps integer minor units (1234). The conversion is exact or refused: 12.345 EUR has
// no cent value, and rounding it silently would change what a prize is worth.
import { AppError, type FieldRule } from '../errors.js';
import { currencyExponent } from './pricing.js';

/** The largest amount a money column holds (PostgreSQL integer). */
export const MAX_MINOR_UNITS = 2_147_483_647;

/** Decimals written in a number's shortest decimal form (12.34 → 2; 1e-7 → 7). */
function decimalsOf(value: number): number {
  const text = String(value);
  const exp = /e([+-]\d+)$/.exec(text);
  const mantissa = exp ? text.slice(0, exp.index) : text;
  const fraction = mantissa.split('.')[1]?.length ?? 0;
  return Math.max(0, fraction - (exp ? Number(exp[1]) : 0));
}

/** Major units to minor units, exactly; `field` names the wire field in the refusal. */
export function toMinorUnits(value: number, currency: string, field: string): number {
  const exponent = currencyExponent(currency);
  const issue = (code: FieldRule, message: string) =>
    new AppError('invalid_request', `${field} ${message}.`, { issues: [{ field, code, message }] });
  if (!Number.isFinite(value) || value < 0) throw issue('too_small', 'must be at least 0');
  if (decimalsOf(value) > exponent) {
    throw issue('invalid', `must have at most ${exponent} decimals in ${currency}`);
  }
  const minor = Math.round(value * 10 ** exponent);
  if (minor > MAX_MINOR_UNITS) {
    throw issue('too_big', `must be at most ${MAX_MINOR_UNITS / 10 ** exponent}`);
  }
  return minor;
}

/** Minor units to major units (1234 → 12.34): the shortest decimal reads back exactly. */
export const toMajorUnits = (minor: number, currency: string): number =>
  minor / 10 ** currencyExponent(currency);
