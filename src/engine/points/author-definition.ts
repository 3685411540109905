// Authoring event definitions (backoffice GraphQL and the admin CLI). Executions freeze a
// snapshot of the definition they ran against, so an edit only bumps `version`.
import type { z } from 'zod';
import type { Db } from '../../domain/db.js';
import { AppError, notFound } from '../../domain/errors.js';
import { newId, isUuid } from '../../domain/ids.js';
import { isUniqueViolation } from '../../domain/prisma-errors.js';
import { parseInput } from '../../domain/validation.js';
import { createDefinitionInput, updateDefinitionInput } from './definition-inputs.js';

export async function createDefinition(db: Db, input: z.input<typeof createDefinitionInput>) {
  const data = parseInput(createDefinitionInput, input);
  const subBrand = await db.subBrand.findUnique({
    where: { id: data.subBrandId },
    select: { isPlatform: true },
  });
  if (!subBrand || subBrand.isPlatform) throw notFound('Sub-brand');
  try {
    return await db.eventDefinition.create({
      data: {
        id: newId(),
        ...data,
        constraints: (data.constraints ?? {}) as object,
        idempotencyKeyField: data.idempotencyKeyField ?? null,
      },
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError(
        'conflict',
        `This sub-brand already has an event definition with code ${data.code}.`,
      );
    throw error;
  }
}

/** Omitted fields stay; idempotencyKeyField: null restores the default (event_id, then id). */
export async function updateDefinition(
  db: Db,
  id: string,
  input: z.input<typeof updateDefinitionInput>,
) {
  const data = parseInput(updateDefinitionInput, input);
  if (!isUuid(id)) throw notFound('Event definition');
  const existing = await db.eventDefinition.findUnique({ where: { id }, select: { id: true } });
  if (!existing) throw notFound('Event definition');
  return db.eventDefinition.update({
    where: { id },
    data: {
      ...data,
      constraints: data.constraints === undefined ? undefined : (data.constraints as object),
      version: { increment: 1 },
    },
  });
}
