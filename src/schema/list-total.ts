// The `total` of a backoffice list's connection (domain/list-total.ts): exact under the cap,
// estimated above it, and saying which.
import { listTotal, type ListTotal } from '../domain/list-total.js';
import { builder } from './builder.js';

export const ListTotalRef = builder.objectRef<ListTotal>('ListTotal').implement({
  description:
    'How many items the list holds with its filter: counted exactly up to 10,000, estimated by PostgreSQL’s planner above.',
  fields: (t) => ({
    value: t.exposeInt('value'),
    exact: t.exposeBoolean('exact', {
      description:
        'False when `value` is an estimate (the list holds more than 10,000); 10,001 with exact false means only "more than 10,000" (no statistics to estimate from).',
    }),
  }),
});

/**
 * A list's total counted with its own filter: exact to 10,000; past that, "more than 10,000"
 * (exact false at 10,001). For lists whose filters (joins, JSON, ranges over relations) the
 * planner cannot estimate well: a wrong "about" would mislead more than "more than".
 */
export const countedTotal = (countUpTo: (take: number) => Promise<number>, cap?: number) =>
  listTotal({ countUpTo, estimate: () => Promise.resolve(0), cap });
