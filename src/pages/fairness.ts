// GET /fairness/verify (docs/fairness.md): the public check of a mini-game draw, for players and
// anyone they show a draw to. No key: it answers only what a revealed seed already makes public,
// and an active seed as an unknown one. Served beside the pages (the route table's rows all need
// a key), after the rate limiter, which counts a caller without a key by its address; its errors
// are the establishment API's (families/index.ts names its root).
import { Router } from 'express';
import { verifyDraw } from '../engine/campaigns/verify-draw.js';
import type { PrismaClient } from '../generated/prisma/client.js';

/** The path's first segment: errors under it answer in the establishment API's shape. */
export const FAIRNESS_ROOT = 'fairness';

export function fairnessRouter(deps: { prisma: PrismaClient }): Router {
  const router = Router();
  router.get(`/${FAIRNESS_ROOT}/verify`, async (req, res) => {
    const answer = await verifyDraw(deps.prisma, req.query);
    // A revealed seed's draws never change: any page may ask, and caches may keep the answer.
    res.set({ 'access-control-allow-origin': '*', 'cache-control': 'public, max-age=3600' });
    res.json(answer);
  });
  return router;
}
