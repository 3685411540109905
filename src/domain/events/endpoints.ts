// Webhook endpoints (docs/webhooks.md): where a tenant wants its events pushed, which types, and
// the secret that signs them. The secret is shown when made and when rotated, never again; it is
// kept (not hashed, unlike API keys) because every delivery is signed with it.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { inTransaction, type Db } from '../db.js';
import { AppError, invalidRequest, notFound } from '../errors.js';
import { isUuid, newId } from '../ids.js';
import type { Tenant } from '../tenant.js';
import { parseInput } from '../validation.js';
import { endpointUrlProblem } from './endpoint-url.js';
import { EVENT_TYPE_NAMES } from './types.js';

/** A tenant's endpoints at most (Stripe's limit too): each one multiplies every delivery. */
export const MAX_ENDPOINTS = 16;
/** How long a rotated secret keeps signing beside the new one. */
export const PREVIOUS_SECRET_MS = 24 * 3600 * 1000;

export const ENDPOINT_STATUSES = ['active', 'disabled'] as const;

const eventTypes = z
  .array(z.enum(EVENT_TYPE_NAMES as [string, ...string[]]))
  .max(EVENT_TYPE_NAMES.length)
  .describe('Event types to receive; empty: every type (and those added later).');

export const createEndpointInput = z.strictObject({
  url: z.string().trim().min(1).max(2048).describe('Where events are POSTed.'),
  eventTypes: eventTypes.default([]),
  description: z.string().trim().max(500).nullish(),
});

export const updateEndpointInput = z.strictObject({
  url: createEndpointInput.shape.url.optional(),
  eventTypes: eventTypes.optional(),
  description: z.string().trim().max(500).nullish(),
  status: z
    .enum(ENDPOINT_STATUSES)
    .optional()
    .describe('disabled stops deliveries; active resumes them (and forgets why it was disabled).'),
});

const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

function checkUrl(url: string | undefined, tenant: Tenant) {
  const problem = url === undefined ? null : endpointUrlProblem(url, tenant.environment);
  if (problem) throw invalidRequest([{ field: 'url', code: 'format', message: problem }]);
}

const SHOWN = {
  id: true,
  url: true,
  description: true,
  eventTypes: true,
  status: true,
  disabledReason: true,
  failingSince: true,
  createdAt: true,
  updatedAt: true,
} as const;

export async function createEndpoint(db: Db, tenant: Tenant, input: unknown) {
  const data = parseInput(createEndpointInput, input);
  checkUrl(data.url, tenant);
  const count = await db.webhookEndpoint.count({ where: tenant });
  if (count >= MAX_ENDPOINTS)
    throw new AppError(
      'conflict',
      `A sub-brand has at most ${MAX_ENDPOINTS} webhook endpoints per environment; delete one first.`,
    );
  const endpoint = await db.webhookEndpoint.create({
    data: {
      id: newId(),
      ...tenant,
      url: data.url,
      description: data.description ?? null,
      eventTypes: [...new Set(data.eventTypes)],
      secret: newSecret(),
    },
  });
  return endpoint;
}

export async function getEndpoint(db: Db, tenant: Tenant, id: string) {
  const endpoint = isUuid(id)
    ? await db.webhookEndpoint.findFirst({ where: { id, ...tenant }, select: SHOWN })
    : null;
  if (!endpoint) throw notFound('Webhook endpoint');
  return endpoint;
}

export function listEndpoints(db: Db, tenant: Tenant) {
  return db.webhookEndpoint.findMany({ where: tenant, select: SHOWN, orderBy: { id: 'asc' } });
}

export async function updateEndpoint(db: Db, tenant: Tenant, id: string, input: unknown) {
  const data = parseInput(updateEndpointInput, input);
  await getEndpoint(db, tenant, id);
  checkUrl(data.url, tenant);
  return db.webhookEndpoint.update({
    where: { subBrandId_id: { subBrandId: tenant.subBrandId, id } },
    data: {
      url: data.url,
      eventTypes: data.eventTypes && [...new Set(data.eventTypes)],
      description: data.description,
      status: data.status,
      // Turned on again by a person: it starts with a clean record.
      ...(data.status === 'active' ? { disabledReason: null, failingSince: null } : {}),
      ...(data.status === 'disabled' ? { disabledReason: 'Disabled by its owner.' } : {}),
    },
    select: SHOWN,
  });
}

/** Deletes the endpoint, its deliveries and their attempts. */
export async function deleteEndpoint(db: Db, tenant: Tenant, id: string) {
  await getEndpoint(db, tenant, id);
  const where = { subBrandId: tenant.subBrandId, endpointId: id };
  return inTransaction(db, async (tx) => {
    await tx.webhookAttempt.deleteMany({ where });
    await tx.webhookDelivery.deleteMany({ where });
    await tx.webhookEndpoint.delete({
      where: { subBrandId_id: { subBrandId: tenant.subBrandId, id } },
    });
    return { id };
  });
}

/** A new secret; the old one keeps signing beside it for 24 hours (receivers accept either). */
export async function rotateSecret(db: Db, tenant: Tenant, id: string, now: Date) {
  const current = isUuid(id)
    ? await db.webhookEndpoint.findFirst({ where: { id, ...tenant }, select: { secret: true } })
    : null;
  if (!current) throw notFound('Webhook endpoint');
  return db.webhookEndpoint.update({
    where: { subBrandId_id: { subBrandId: tenant.subBrandId, id } },
    data: {
      secret: newSecret(),
      previousSecret: current.secret,
      previousExpiresAt: new Date(now.getTime() + PREVIOUS_SECRET_MS),
    },
    select: { ...SHOWN, secret: true, previousExpiresAt: true },
  });
}
