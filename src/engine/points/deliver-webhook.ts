// POST /engine/webhooks/{code}: the same pipeline, with the idempotency key taken from the
// payload (the definition's idempotencyKeyField, else event_id, then id), or else from the
// Idempotency-Key header. Ids longer than 64 characters are replaced by their SHA-256 (64 hex).
import { createHash } from 'node:crypto';
import type { PrismaClient } from '../../generated/prisma/client.js';
import { AppError } from '../../domain/errors.js';
import { newId } from '../../domain/ids.js';
import type { Actor, Tenant } from '../../domain/tenant.js';
import {
  deliverEvent,
  newCorrelationId,
  preflight,
  type EngineEventResult,
  type EngineOptions,
} from './deliver-event.js';

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
  const definition = await preflight(prisma, tenant, {
    channel: 'webhook',
    eventCode: webhook.code,
    data: webhook.payload,
  }).catch(async (error: unknown) => {
    // deliverEvent audits its own pre-flight refusals; this one happens before it runs.
    if (error instanceof AppError)
      await rejected(prisma, tenant, actor, webhook.code, null, correlationId, error.code);
    throw error;
  });
  const key = webhookKey(webhook.payload, definition.idempotencyKeyField, webhook.headerKey);
  if (!key) {
    await rejected(
      prisma,
      tenant,
      actor,
      webhook.code,
      definition.id,
      correlationId,
      'missing_idempotency_key',
    );
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

function rejected(
  prisma: PrismaClient,
  tenant: Tenant,
  actor: Actor,
  code: string,
  definitionId: string | null,
  correlationId: string,
  errorCode: string,
) {
  return prisma.engineAudit.create({
    data: {
      id: newId(),
      ...tenant,
      eventCode: code.slice(0, 64),
      channel: 'webhook',
      outcome: 'rejected',
      errorCode,
      correlationId,
      requestId: actor.requestId,
      definitionId,
    },
  });
}
