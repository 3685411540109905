// Authoring event definitions (backoffice GraphQL and the admin CLI). Executions freeze a
// snapshot of the definition they ran against, so an edit only bumps `version`. Under a UKGC
// sub-brand a definition may not span more than one product vertical (docs/compliance.md).
import type { z } from 'zod';
import { inTransaction, type Db } from '../../domain/db.js';
import { AppError, notFound } from '../../domain/errors.js';
import { newId, isUuid } from '../../domain/ids.js';
import { assertVerticalsAllowed, inVerticalOrder } from '../../domain/jurisdiction/rules.js';
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
  const verticals = inVerticalOrder(data.verticals ?? []);
  try {
    return await inTransaction(db, async (tx) => {
      await assertVerticalsAllowed(tx, data.subBrandId, verticals, 'the event definition');
      return tx.eventDefinition.create({
        data: {
          id: newId(),
          ...data,
          verticals,
          constraints: (data.constraints ?? {}) as object,
          idempotencyKeyField: data.idempotencyKeyField ?? null,
        },
      });
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

/**
 * Omitted fields stay; idempotencyKeyField: null restores the default (event_id, then id). An
 * edit that leaves the definition spanning more than one vertical (activating one included) is
 * refused under UKGC; a bare deactivation never is: stopping an incentive breaks no rule.
 */
export async function updateDefinition(
  db: Db,
  id: string,
  input: z.input<typeof updateDefinitionInput>,
) {
  const data = parseInput(updateDefinitionInput, input);
  if (!isUuid(id)) throw notFound('Event definition');
  return inTransaction(db, async (tx) => {
    const existing = await tx.eventDefinition.findUnique({
      where: { id },
      select: { id: true, subBrandId: true, verticals: true },
    });
    if (!existing) throw notFound('Event definition');
    const verticals = data.verticals === undefined ? undefined : inVerticalOrder(data.verticals);
    const onlyDeactivates = Object.entries(data).every(
      ([k, v]) => v === undefined || (k === 'active' && v === false),
    );
    if (!onlyDeactivates)
      await assertVerticalsAllowed(
        tx,
        existing.subBrandId,
        verticals ?? existing.verticals,
        'the event definition',
      );
    return tx.eventDefinition.update({
      where: { id },
      data: {
        ...data,
        verticals,
        constraints: data.constraints === undefined ? undefined : (data.constraints as object),
        version: { increment: 1 },
      },
    });
  });
}
