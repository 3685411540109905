// A report's window: from (inclusive) to (exclusive), instants; at most MAX_WINDOW_DAYS long.
import { z } from 'zod';
import { AppError } from '../errors.js';
import { parseInput } from '../validation.js';

export const MAX_WINDOW_DAYS = 366;
const DAY_MS = 86_400_000;

export type ReportWindow = { from: Date; to: Date };

const windowInput = z.object({ from: z.date(), to: z.date() });

/** Checks a window: from before to, at most `maxDays` long. */
export function reportWindow(input: ReportWindow, maxDays = MAX_WINDOW_DAYS): ReportWindow {
  const { from, to } = parseInput(windowInput, input);
  if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime()))
    throw new AppError('invalid_request', 'from and to must be instants.');
  if (from >= to) throw new AppError('invalid_request', 'to: must be after from.');
  if (to.getTime() - from.getTime() > maxDays * DAY_MS)
    throw new AppError('invalid_request', `to: the window may span at most ${maxDays} days.`);
  return { from, to };
}
