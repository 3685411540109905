// A key's principal, kept for a few seconds per process, so most requests skip the key lookup
// (one statement and ~0.1-0.3 ms of CPU on every call). A change to any key or sub-brand
// (revocation first of all) reaches every process at its commit: a trigger NOTIFYs
// `principals_changed` (migration principal_change_notify) and each process drops its whole
// cache. While that channel is down (no session yet, a lost connection, a transaction-mode
// pooler that cannot LISTEN) nothing is cached, so a change can never be missed.
import type { Listen } from '../db/notifications.js';
import type { AuthFailure, Principal } from '../domain/tenancy/authenticate-api-key.js';

export const PRINCIPAL_TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;

type Outcome = { principal: Principal } | { failure: AuthFailure };

export class PrincipalCache {
  #entries = new Map<string, { principal: Principal; until: number }>();
  /** Bumped by every change: a lookup that began before one must not be cached after it. */
  #generation = 0;
  #live = false;

  constructor(
    listen: Listen | undefined,
    readonly ttlMs = PRINCIPAL_TTL_MS,
  ) {
    listen?.('principals_changed', {
      onNotify: () => this.invalidate(),
      onState: (live) => {
        this.invalidate();
        this.#live = live;
      },
    });
  }

  /** The key's principal while it is cached, else undefined (then `load`). */
  cached(key: string): Principal | undefined {
    if (!this.#live) return undefined;
    const hit = this.#entries.get(key);
    return hit && hit.until > Date.now() ? hit.principal : undefined;
  }

  /** After `cached` missed: the key's outcome, from `lookUp`, kept when it grants a principal. */
  async load(key: string, lookUp: () => Promise<Outcome>): Promise<Outcome> {
    const generation = this.#generation;
    const outcome = await lookUp();
    // Only granted keys are kept: a refused one costs its lookup (and no change can be missed
    // by a key created after a refusal).
    if ('principal' in outcome && this.#live && generation === this.#generation) {
      if (this.#entries.size >= MAX_ENTRIES) this.#entries.clear();
      this.#entries.set(key, { principal: outcome.principal, until: Date.now() + this.ttlMs });
    }
    return outcome;
  }

  invalidate() {
    this.#generation++;
    this.#entries.clear();
  }
}
