// Reading a sub-brand's event definitions: all of them for operators, the active ones for a
// partner who needs the codes to send events.
import type { Db } from '../../domain/db.js';
import { notFound } from '../../domain/errors.js';
import { isUuid } from '../../domain/ids.js';

export const listDefinitions = (db: Db, filter: { subBrandId: string; activeOnly?: boolean }) =>
  db.eventDefinition.findMany({
    where: { subBrandId: filter.subBrandId, ...(filter.activeOnly ? { active: true } : {}) },
    orderBy: { code: 'asc' },
  });

export async function getDefinition(db: Db, id: string) {
  const definition = isUuid(id) ? await db.eventDefinition.findUnique({ where: { id } }) : null;
  if (!definition) throw notFound('Event definition');
  return definition;
}
