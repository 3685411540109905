// The campaigns' scheduled job, started by start-server.ts in every server process: it completes
// campaigns whose end has passed (writing their settlement jobs), marks unclaimed awards expired,
// and settles waiting tournaments. Every process may run it at once: completion is one guarded
// UPDATE, and each settlement is claimed with FOR UPDATE SKIP LOCKED (settle-tournaments.ts).
import type { PrismaClient } from '../../generated/prisma/client.js';
import type { Clock } from '../shared/clock.js';
import { completeEndedCampaigns } from './complete-campaigns.js';
import { settleNextTournament, type SettleOptions } from './settle-tournaments.js';
import { expireAwards } from './expire-awards.js';
import { every, type Periodic } from '../../domain/every.js';

export const CAMPAIGN_JOB_EVERY_MS = 15_000;

/** One pass; answers what it did (tests and logs). */
export async function runCampaignJobs(
  prisma: PrismaClient,
  options: SettleOptions & { maxSettlements?: number },
): Promise<{ completed: number; expired: number; settled: string[] }> {
  const now = options.now();
  const completed = await completeEndedCampaigns(prisma, now);
  const expired = await expireAwards(prisma, now);
  const settled: string[] = [];
  for (let i = 0; i < (options.maxSettlements ?? 100); i++) {
    const id = await settleNextTournament(prisma, options);
    if (!id) break;
    settled.push(id);
  }
  return { completed, expired, settled };
}

/** Runs the job every CAMPAIGN_JOB_EVERY_MS until the returned stop is called (and awaited). */
export function startCampaignJobs(
  prisma: PrismaClient,
  options: { now?: Clock; everyMs?: number; onError: (err: unknown) => void },
): Periodic {
  const now = options.now ?? (() => new Date());
  return every(
    options.everyMs ?? CAMPAIGN_JOB_EVERY_MS,
    () => runCampaignJobs(prisma, { now }),
    options.onError,
  );
}
