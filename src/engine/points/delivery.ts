// The words every stage of the delivery pipeline shares, in a module of their own so that the
// stages import them without importing the pipeline that calls them.
import { randomBytes } from 'node:crypto';
import type { EventDefinition } from '../../generated/prisma/client.js';

export type Channel = 'events' | 'webhook';

export type Delivery = {
  channel: Channel;
  eventCode: string;
  data: Record<string, unknown>;
  pointsOverride?: number | undefined;
  correlationId?: string | null | undefined;
  idempotencyKey: string;
};

export type EngineOptions = {
  now: () => Date;
  /** How long a `processing` claim is honoured before another delivery may take it over. */
  claimTimeoutMs: number;
};

/** What a finished delivery did. */
export const ENGINE_OUTCOMES = ['completed', 'skipped', 'failed'] as const;

export type EngineEventResult = {
  eventId: string;
  status: (typeof ENGINE_OUTCOMES)[number];
  replayed: boolean;
  correlationId: string;
  customerId: string | null;
  pointsRequested: number;
  pointsApplied: number;
  balanceBefore: number;
  balanceAfter: number;
  errorCode: string | null;
  errorMessage: string | null;
};

export type Definition = EventDefinition;

/** The definition as the claim froze it: a reclaim runs the original, not today's edit. */
export type Snapshot = {
  id: string;
  code: string;
  version: number;
  points: number;
  constraints: unknown;
  playerIdField: string;
  idempotencyKeyField: string | null;
  allowPointsOverride: boolean;
};

export const newCorrelationId = () => `cor_${randomBytes(12).toString('hex')}`;
