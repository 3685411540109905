// CSV import of players: choose a file, Preview (nothing written: every row new, existing or
// invalid with its reasons), then Import, which asks first and creates only the new rows. The
// file goes in slices with a progress bar; the same file imported again creates nothing (rows
// are matched on external_id), so an interrupted import is finished by running it again.
import {
  Badge,
  Button,
  Card,
  Code,
  FileInput,
  Group,
  Progress,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { useState } from 'react';
import { useClient, type CombinedError } from 'urql';
import { ConfirmButton } from '../../components/Confirm';
import { ErrorAlert } from '../../components/ErrorAlert';
import { notify } from '../../components/notify';
import { Page } from '../../components/Page';
import { graphql, type ResultOf } from '../../graphql';
import { sliceCsv } from './csv-slices';
import { t } from '../../i18n';

const PreviewQuery = graphql(`
  query PreviewImport($csv: String!) {
    previewPlayerImport(csv: $csv) {
      newCount
      existingCount
      invalidCount
      createdCount
      rows {
        line
        externalId
        outcome
        errors
      }
    }
  }
`);
const ImportMutation = graphql(`
  mutation ImportPlayers($csv: String!) {
    importPlayers(csv: $csv) {
      newCount
      existingCount
      invalidCount
      createdCount
      rows {
        line
        externalId
        outcome
        errors
      }
    }
  }
`);
type Report = ResultOf<typeof PreviewQuery>['previewPlayerImport'];

type Row = {
  line: number;
  externalId: string | null;
  outcome: 'new' | 'existing' | 'invalid' | 'created';
  errors: string[];
};
type Totals = { new: number; existing: number; invalid: number; created: number; rows: Row[] };
const SLICE = 250;
const SHOWN = 200;

export default function ImportPage() {
  const client = useClient();
  const [file, setFile] = useState<File | null>(null);
  const [text, setText] = useState<string | null>(null);
  const [mode, setMode] = useState<'preview' | 'import' | null>(null);
  const [totals, setTotals] = useState<Totals | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<CombinedError | Error | null>(null);
  const [filter, setFilter] = useState<'all' | Row['outcome']>('all');
  const busy = progress !== null && progress < 100;

  const choose = async (f: File | null) => {
    setFile(f);
    setTotals(null);
    setMode(null);
    setError(null);
    setText(f ? await f.text() : null);
  };

  const run = async (what: 'preview' | 'import') => {
    if (text === null) return;
    const slices = sliceCsv(text, SLICE);
    setError(null);
    setMode(what);
    const sum: Totals = { new: 0, existing: 0, invalid: 0, created: 0, rows: [] };
    setTotals(null);
    setProgress(0);
    for (const [i, slice] of slices.entries()) {
      const res =
        what === 'preview'
          ? await client.query(PreviewQuery, { csv: slice.csv }, { requestPolicy: 'network-only' })
          : // Each slice is a submission of its own (its key: docs/idempotency.md); a slice
            // imported again creates nothing again anyway, row by row.
            await client.mutation(
              ImportMutation,
              { csv: slice.csv },
              { fetchOptions: { headers: { 'idempotency-key': crypto.randomUUID() } } },
            );
      const report: Report | undefined =
        'previewPlayerImport' in (res.data ?? {})
          ? (res.data as ResultOf<typeof PreviewQuery>).previewPlayerImport
          : (res.data as ResultOf<typeof ImportMutation> | undefined)?.importPlayers;
      if (res.error || !report) {
        setError(res.error ?? new Error('The server sent no report.'));
        setProgress(null);
        setTotals(sum);
        return;
      }
      const r = report;
      sum.new += r.newCount;
      sum.existing += r.existingCount;
      sum.invalid += r.invalidCount;
      sum.created += r.createdCount;
      // The server numbers lines within the slice (its header is line 1).
      sum.rows.push(...r.rows.map((row) => ({ ...row, line: row.line - 2 + slice.firstLine })));
      setProgress(Math.round(((i + 1) / slices.length) * 100));
      setTotals({ ...sum, rows: [...sum.rows] });
    }
    setProgress(100);
    if (what === 'import') {
      notify(
        t('Created {created} player(s); {existing} already there, {invalid} invalid.', {
          created: sum.created,
          existing: sum.existing,
          invalid: sum.invalid,
        }),
      );
    }
  };

  const shown = (totals?.rows ?? []).filter((r) => filter === 'all' || r.outcome === filter);
  return (
    <Page title={t('Import players')}>
      <Card withBorder>
        <Stack>
          <Text size="sm">
            {t('A CSV with a header row.')} {t('Required:')} <Code>external_id</Code>,{' '}
            <Code>first_name</Code>, <Code>last_name</Code>. {t('Optional:')} <Code>nickname</Code>,{' '}
            <Code>email</Code>, <Code>phone</Code>, <Code>country</Code> (ES),{' '}
            <Code>preferred_lang</Code>, <Code>segment_id</Code>, <Code>status</Code>.{' '}
            {t(
              'A player whose external id exists is left as it is, so importing a file twice creates nothing twice.',
            )}
          </Text>
          <Text size="sm">
            {t(
              "A file from the customers list's “Export CSV” imports as it is (into this sub-brand or another): its {columns} columns are ignored, so players arrive with new ids and no coins; rows without an external id are reported invalid.",
              { columns: 'id, balance, order_count, created_at' },
            )}
          </Text>
          <FileInput
            label={t('CSV file')}
            placeholder={t('Choose a .csv file')}
            accept=".csv,text/csv"
            value={file}
            onChange={(f) => void choose(f)}
            clearable
            clearButtonProps={{ 'aria-label': t('Clear the file') }}
            w={360}
            data-testid="import-file"
          />
          <Group>
            <Button
              variant="default"
              onClick={() => void run('preview')}
              disabled={text === null || busy}
              loading={busy && mode === 'preview'}
            >
              {t('Preview')}
            </Button>
            <ConfirmButton
              title={t('Import players')}
              question={
                mode === 'preview' && totals
                  ? t(
                      'Create {new} new player(s)? {existing} existing and {invalid} invalid row(s) are left alone.',
                      { new: totals.new, existing: totals.existing, invalid: totals.invalid },
                    )
                  : t(
                      'Create the new players of this file? Existing and invalid rows are left alone.',
                    )
              }
              confirmLabel={t('Import')}
              onConfirm={() => run('import')}
              disabled={text === null || busy || mode !== 'preview' || !totals || error !== null}
              loading={busy && mode === 'import'}
            >
              {t('Import')}
            </ConfirmButton>
          </Group>
          {progress !== null && (
            <Progress
              value={progress}
              aria-label={mode === 'import' ? t('Import progress') : t('Preview progress')}
              data-testid="import-progress"
            />
          )}
          <ErrorAlert error={error} />
        </Stack>
      </Card>
      {totals && (
        <>
          <SimpleGrid cols={{ base: 2, md: 4 }} data-testid="import-totals">
            {mode === 'import' ? (
              <Stat label={t('Created')} value={totals.created} />
            ) : (
              <Stat label={t('New')} value={totals.new} />
            )}
            <Stat label={t('Already there')} value={totals.existing} />
            <Stat label={t('Invalid')} value={totals.invalid} />
            <Stat label={t('Rows')} value={totals.rows.length} />
          </SimpleGrid>
          <SegmentedControl
            aria-label={t('Rows shown')}
            value={filter}
            onChange={(v) => setFilter(v as typeof filter)}
            data={['all', mode === 'import' ? 'created' : 'new', 'existing', 'invalid']}
            w={360}
          />
          <Table striped data-testid="import-rows">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('Line')}</Table.Th>
                <Table.Th>{t('External id')}</Table.Th>
                <Table.Th>{t('Outcome')}</Table.Th>
                <Table.Th>{t('Why')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {shown.slice(0, SHOWN).map((r) => (
                <Table.Tr key={r.line}>
                  <Table.Td>{r.line}</Table.Td>
                  <Table.Td>{r.externalId ?? '—'}</Table.Td>
                  <Table.Td>
                    <Badge color={OUTCOME_COLOR[r.outcome]}>{r.outcome}</Badge>
                  </Table.Td>
                  <Table.Td>{r.errors.join('; ')}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {shown.length > SHOWN && (
            <Text size="sm" c="gray.7">
              {t('The first {SHOWN} of {length} rows are shown.', { SHOWN, length: shown.length })}
            </Text>
          )}
        </>
      )}
    </Page>
  );
}

const OUTCOME_COLOR = { new: 'indigo', created: 'teal', existing: 'gray', invalid: 'red' } as const;

function Stat(props: { label: string; value: number }) {
  return (
    <Card withBorder padding="sm">
      <Text size="xs" c="gray.7">
        {props.label}
      </Text>
      <Text fw={700} size="xl">
        {props.value}
      </Text>
    </Card>
  );
}
