// CSV import of players: a preview (nothing written), then the import, which creates only the
// rows whose external_id the tenant does not have yet (domain/customers/import-players.ts).
import {
  importPlayers,
  previewPlayerImport,
  type ImportReport,
  type ImportRow,
} from '../../domain/customers/import-players.js';
import { builder } from '../builder.js';
import { tenantOf } from '../tenant.js';
import { effect } from '../effects.js';

const OutcomeEnum = builder.enumType('PlayerImportOutcome', {
  description:
    'new: would be created; existing: its external_id is taken, nothing is done; invalid: see errors; created: made now.',
  values: ['new', 'existing', 'invalid', 'created'] as const,
});

const RowRef = builder.objectRef<ImportRow>('PlayerImportRow').implement({
  fields: (t) => ({
    line: t.exposeInt('line', { description: 'The line of the file the row starts on.' }),
    externalId: t.exposeString('externalId', { nullable: true }),
    outcome: t.expose('outcome', { type: OutcomeEnum }),
    customerId: t.exposeID('customerId', {
      nullable: true,
      description: 'The customer made now, or the one already holding the external_id.',
    }),
    errors: t.exposeStringList('errors', { description: 'Why the row is invalid.' }),
  }),
});

const ReportRef = builder.objectRef<ImportReport>('PlayerImportReport').implement({
  fields: (t) => ({
    rows: t.field({ type: [RowRef], resolve: (r) => r.rows }),
    newCount: t.int({ resolve: (r) => r.counts.new }),
    existingCount: t.int({ resolve: (r) => r.counts.existing }),
    invalidCount: t.int({ resolve: (r) => r.counts.invalid }),
    createdCount: t.int({ resolve: (r) => r.counts.created }),
  }),
});

const CSV_DESCRIPTION =
  'A header row (external_id, first_name, last_name required; nickname, email, phone, country, preferred_lang, segment_id, status optional), then at most 1000 rows.';

builder.queryField('previewPlayerImport', (t) =>
  t.field({
    type: ReportRef,
    description: 'What importPlayers would do with this CSV, row by row; writes nothing.',
    authScopes: { scope: 'customers:create' },
    args: { csv: t.arg.string({ required: true, description: CSV_DESCRIPTION }) },
    resolve: (_root, { csv }, ctx) => previewPlayerImport(ctx.db, tenantOf(ctx), csv),
  }),
);

builder.mutationField('importPlayers', (t) =>
  t.field({
    extensions: effect('creates', { ownTransactions: true }),
    type: ReportRef,
    description:
      'Creates the players of this CSV whose external_id is new; the same file again creates nothing.',
    authScopes: { scope: 'customers:create' },
    args: { csv: t.arg.string({ required: true, description: CSV_DESCRIPTION }) },
    resolve: (_root, { csv }, ctx) => importPlayers(ctx.db, tenantOf(ctx), csv),
  }),
);
