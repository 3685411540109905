// POST /engine/webhooks/{code}: the same pipeline, with the idempotency key taken from the
// payload (the definition's idempotencyKeyField, else event_id, then id), or else from the
// Idempotency-Key header. Ids longer than 64 characters are replaced by their SHA-256 (64 hex).
import { createHash } from 'node:crypto';
import type { PrismaClient } from '../../generated/prisma/client.js';
import { AppError } from '../../domain/errors.js';
import type { Actor, Tenant } from '../../domain/tenant.js';
import { deliverEvent } from './deliver-event.js';
import { newCorrelationId, type EngineEventResult, type EngineOptions } from './delivery.js';
import { auditOf, recordAudit } from './engine-audit.js';
import { preflight } from './preflight.js';

export function webhookKey(
  payload: Record<string, unknown>,
  field: string | null,
  header: string | null,
): string | null {
  for (const name of field ? [field] : ['event_id', 'id']) {
    const value = payload[name];
    if (
      (typeof value === 'string' && value !== '') ||
      (typeof value === 'number' && Number.isFinite(value))
    ) {
      const id = String(value);
      return id.length > 64 ? createHash('sha256').update(id).digest('hex') : id;
    }
  }
  return header;
}

export async function deliverWebhook(
  prisma: PrismaClient,
  tenant: Tenant,
  actor: Actor,
  webhook: {
    code: string;
    payload: Record<string, unknown>;
    headerKey: string | null;
    correlationId?: string | null;
  },
  options: EngineOptions,
): Promise<EngineEventResult> {
  const correlationId = webhook.correlationId || newCorrelationId();
  // No key yet, so no execution: refusals before deliverEvent are audited here.
  const rejected = (definitionId: string | null, errorCode: string) =>
    recordAudit(prisma, tenant, {
      ...auditOf(
        actor,
        { channel: 'webhook', eventCode: webhook.code, idempotencyKey: null },
        correlationId,
      ),
      outcome: 'rejected',
      definitionId,
      errorCode,
    });
  const definition = await preflight(prisma, tenant, {
    channel: 'webhook',
    eventCode: webhook.code,
    data: webhook.payload,
  }).catch(async (error: unknown) => {
    if (error instanceof AppError) await rejected(null, error.code);
    throw error;
  });
  const key = webhookKey(webhook.payload, definition.idempotencyKeyField, webhook.headerKey);
  if (!key) {
    await rejected(definition.id, 'missing_idempotency_key');
    const field = definition.idempotencyKeyField ?? 'event_id or id';
    throw new AppError(
      'missing_idempotency_key',
      `The payload has no ${field} and no Idempotency-Key header was sent.`,
    );
  }
  return deliverEvent(
    prisma,
    tenant,
    actor,
    {
      channel: 'webhook',
      eventCode: webhook.code,
      data: webhook.payload,
      idempotencyKey: key,
      correlationId,
    },
    options,
    definition,
  );
}
