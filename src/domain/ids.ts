import { v7 } from 'uuid';

/** Time-ordered ids: sorting by id is sorting by creation, which cursors rely on. */
export const newId = (): string => v7();

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string): boolean => UUID.test(value);

/** The creation instant a UUIDv7 carries (its first 48 bits: Unix milliseconds). */
export const idTime = (id: string): Date =>
  new Date(parseInt(id.replace(/-/g, '').slice(0, 12), 16));

/** The smallest UUIDv7 of an instant: every id made at or after it sorts at or above this. */
export function idFloor(instant: Date): string {
  const hex = Math.max(0, Math.floor(instant.getTime())).toString(16).padStart(12, '0').slice(-12);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-0000-0000-000000000000`;
}
