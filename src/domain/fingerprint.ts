// Hashes that tell "the same request" apart from another: object key order is ignored, so two
// clients serialising one body differently still match (engine events, bulk adjustments and the
// HTTP Idempotency-Key layer all compare requests this way).
import { hash } from 'node:crypto';

/** One-shot: every request hashes its key and its fingerprint; a Hash object per call showed in profiles. */
export const sha256 = (text: string): string => hash('sha256', text, 'hex');

/** A hash of a value that ignores object key order. */
export const valueFingerprint = (value: unknown): string => sha256(canonicalJson(value));

export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value instanceof Date) return JSON.stringify(value);
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}
