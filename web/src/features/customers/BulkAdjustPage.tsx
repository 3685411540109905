// Bulk adjust: the same delta for a cohort. The preview (a dry run) comes first; Apply is only
// offered for exactly the cohort, delta and reason that were previewed, and it reuses one
// idempotency key, so a retried click cannot credit twice.
import {
  Button,
  Card,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useMemo, useState } from 'react';
import { ConfirmButton } from '../../components/Confirm';
import { ErrorAlert } from '../../components/ErrorAlert';
import { coins, count, signedCoins } from '../../components/format';
import { Page } from '../../components/Page';
import { graphql, type ResultOf } from '../../graphql';
import { notify } from '../../components/notify';
import { useFormMutation } from '../../api/form-mutation';
import { t } from '../../i18n';

const BulkMutation = graphql(`
  mutation Bulk($input: BulkAdjustCoinsInput!) {
    bulkAdjustCustomerCoins(input: $input) {
      id
      dryRun
      matched
      applied
      skipped
      totalDelta
      completedAt
    }
  }
`);
type Outcome = ResultOf<typeof BulkMutation>['bulkAdjustCustomerCoins'];

const STATUSES = ['active', 'watch', 'restricted', 'banned'] as const;

export default function BulkAdjustPage() {
  const [q, setQ] = useState('');
  const [status, setStatus] = useState<(typeof STATUSES)[number] | null>(null);
  const [country, setCountry] = useState('');
  const [delta, setDelta] = useState<number | ''>('');
  const [reason, setReason] = useState('');
  const [preview, setPreview] = useState<{ form: string; outcome: Outcome; key: string } | null>(
    null,
  );
  const [done, setDone] = useState<Outcome | null>(null);
  const [state, run] = useFormMutation(BulkMutation);

  const input = useMemo(
    () => ({
      filter: {
        ...(q.trim() ? { q: q.trim() } : {}),
        ...(status ? { status } : {}),
        ...(country.trim() ? { country: country.trim().toUpperCase() } : {}),
      },
      delta: typeof delta === 'number' ? delta : 0,
      reason: reason.trim(),
    }),
    [q, status, country, delta, reason],
  );
  const form = JSON.stringify(input);
  const previewed = preview?.form === form ? preview : null;

  const doPreview = async () => {
    setDone(null);
    const res = await run({ input: { ...input, dryRun: true } });
    if (res.data)
      setPreview({ form, outcome: res.data.bulkAdjustCustomerCoins, key: crypto.randomUUID() });
  };
  const apply = async () => {
    if (!previewed) return;
    // The previewed key: a retried click resumes or replays the same adjustment.
    const res = await run({ input: { ...input, dryRun: false } }, { key: previewed.key });
    if (res.data) {
      setDone(res.data.bulkAdjustCustomerCoins);
      setPreview(null);
      notify(
        t('Applied to {n} customers.', { n: count(res.data.bulkAdjustCustomerCoins.applied) }),
      );
    }
  };

  return (
    <Page title={t('Bulk adjust')}>
      <Card withBorder>
        <Stack>
          <Text size="sm" c="gray.7">
            {t(
              'Choose the cohort, then preview: nothing moves until you apply the previewed adjustment.',
            )}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <TextInput
              label={t('Search')}
              description={t('Name, e-mail, external id')}
              value={q}
              onChange={(e) => setQ(e.currentTarget.value)}
            />
            <Select
              label={t('Status')}
              placeholder={t('Any')}
              clearable
              data={[...STATUSES]}
              value={status}
              onChange={(v) => setStatus(v as typeof status)}
            />
            <TextInput
              label={t('Country')}
              description={t('ISO code, e.g. ES')}
              value={country}
              onChange={(e) => setCountry(e.currentTarget.value)}
              maxLength={2}
            />
            <NumberInput
              hideControls
              label={t('Coins per customer')}
              description={t('Negative to debit')}
              allowDecimal={false}
              value={delta}
              onChange={(v) => setDelta(typeof v === 'number' ? v : '')}
            />
            <TextInput
              label={t('Reason')}
              required
              value={reason}
              onChange={(e) => setReason(e.currentTarget.value)}
            />
          </SimpleGrid>
          <ErrorAlert error={state.error} />
          <Group justify="flex-end">
            <Button
              variant="outline"
              onClick={() => void doPreview()}
              loading={state.fetching && !previewed}
              disabled={!input.delta || !input.reason}
            >
              {t('Preview')}
            </Button>
            <ConfirmButton
              title={t('Apply the bulk adjustment')}
              question={
                previewed
                  ? t('Move {delta} coins for {n} customers ({total} in all)?', {
                      delta: signedCoins(input.delta),
                      n: count(previewed.outcome.applied),
                      total: signedCoins(previewed.outcome.totalDelta),
                    })
                  : ''
              }
              confirmLabel={t('Apply')}
              color="red"
              onConfirm={apply}
              disabled={!previewed || previewed.outcome.applied === 0}
              loading={state.fetching && !!previewed}
            >
              {t('Apply…')}
            </ConfirmButton>
          </Group>
        </Stack>
      </Card>
      {previewed && (
        <Summary title={t('Preview (nothing moved yet)')} outcome={previewed.outcome} />
      )}
      {done && <Summary title={t('Applied')} outcome={done} />}
    </Page>
  );
}

function Summary(props: { title: string; outcome: Outcome }) {
  const o = props.outcome;
  return (
    <Card withBorder data-testid="bulk-summary">
      <Text fw={700}>{props.title}</Text>
      <SimpleGrid cols={4} mt="xs">
        <Stat label={t('Matched')} value={String(o.matched)} />
        <Stat label={o.dryRun ? t('Would move') : t('Moved')} value={String(o.applied)} />
        <Stat label={t('Skipped (balance too low)')} value={String(o.skipped)} />
        <Stat label={t('Total')} value={coins(o.totalDelta)} />
      </SimpleGrid>
    </Card>
  );
}

function Stat(props: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" c="gray.7">
        {props.label}
      </Text>
      <Text size="lg" fw={600}>
        {props.value}
      </Text>
    </div>
  );
}
