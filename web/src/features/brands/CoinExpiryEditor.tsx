// A sub-brand's coin expiry policy (docs/expiry-and-holds.md), set by platform and brand admins.
// A lot's expiry is fixed when it is credited, so the question says that a change applies to coins
// credited from then on.
import { Card, Group, NumberInput, Select, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useFormMutation } from '../../api/form-mutation';
import { ConfirmButton } from '../../components/Confirm';
import { ErrorAlert } from '../../components/ErrorAlert';
import { notify } from '../../components/notify';
import { graphql } from '../../graphql';
import { msg, t } from '../../i18n';

const SetExpiry = graphql(`
  mutation SetCoinExpiry(
    $subBrandId: ID!
    $policy: ExpiryPolicy!
    $days: Int
    $month: Int
    $day: Int
  ) {
    setCoinExpiry(subBrandId: $subBrandId, policy: $policy, days: $days, month: $month, day: $day) {
      policy
      days
      month
      day
    }
  }
`);

type Policy = 'none' | 'rolling_days' | 'fixed_date' | 'inactivity_days';
export type CoinExpiry = {
  policy: Policy;
  days: number | null;
  month: number | null;
  day: number | null;
};

const POLICIES: { value: Policy; label: string }[] = [
  { value: 'none', label: msg('Never') },
  { value: 'rolling_days', label: msg('Each credit, N days after it') },
  { value: 'fixed_date', label: msg('Every year on a date') },
  { value: 'inactivity_days', label: msg('All coins, after N days without a movement') },
];

/** The policy in words, as the confirmation and the card say it. */
export function describeExpiry(e: CoinExpiry): string {
  if (e.policy === 'rolling_days')
    return t('each credit expires {days} days after it was earned', { days: e.days ?? '' });
  if (e.policy === 'inactivity_days')
    return t('all coins expire after {days} days without a movement', { days: e.days ?? '' });
  if (e.policy === 'fixed_date')
    return t('coins expire every year on {day}/{month} at 00:00 UTC', {
      day: e.day ?? '',
      month: e.month ?? '',
    });
  return t('coins never expire');
}

export function CoinExpiryEditor(props: {
  subBrandId: string;
  expiry: CoinExpiry;
  readOnly: boolean;
  onDone: () => void;
}) {
  const [form, setForm] = useState(props.expiry);
  const [state, save] = useFormMutation(SetExpiry);
  const needsDays = form.policy === 'rolling_days' || form.policy === 'inactivity_days';
  const ready =
    form.policy === 'none' ||
    (needsDays ? Boolean(form.days) : Boolean(form.month) && Boolean(form.day));
  const num = (v: string | number) => (typeof v === 'number' ? v : null);
  const variables = {
    subBrandId: props.subBrandId,
    policy: form.policy,
    ...(needsDays ? { days: form.days } : {}),
    ...(form.policy === 'fixed_date' ? { month: form.month, day: form.day } : {}),
  };
  return (
    <Card withBorder data-testid="coin-expiry">
      <Stack gap="xs">
        <Title order={2} size="h4">
          {t('Coin expiry')}
        </Title>
        <Text size="sm">{t('Now: {expiry}.', { expiry: describeExpiry(props.expiry) })}</Text>
        {!props.readOnly && (
          <>
            <Group align="end">
              <Select
                label={t('Policy')}
                data={POLICIES.map((p) => ({ value: p.value, label: t(p.label) }))}
                value={form.policy}
                onChange={(v) => v && setForm({ ...form, policy: v as Policy })}
                w={320}
              />
              {needsDays && (
                <NumberInput
                  label={t('Days')}
                  min={1}
                  max={3660}
                  allowDecimal={false}
                  value={form.days ?? ''}
                  onChange={(v) => setForm({ ...form, days: num(v) })}
                  w={120}
                />
              )}
              {form.policy === 'fixed_date' && (
                <>
                  <NumberInput
                    label={t('Month')}
                    min={1}
                    max={12}
                    allowDecimal={false}
                    value={form.month ?? ''}
                    onChange={(v) => setForm({ ...form, month: num(v) })}
                    w={100}
                  />
                  <NumberInput
                    label={t('Day')}
                    min={1}
                    max={31}
                    allowDecimal={false}
                    value={form.day ?? ''}
                    onChange={(v) => setForm({ ...form, day: num(v) })}
                    w={100}
                  />
                </>
              )}
              <ConfirmButton
                variant="default"
                title={t('Coin expiry')}
                question={
                  form.policy === 'inactivity_days'
                    ? t(
                        'From now on, {expiry}? Coins already credited keep their expiry until their wallet next moves.',
                        { expiry: describeExpiry(form) },
                      )
                    : t('From now on, {expiry}? Coins already credited keep their expiry.', {
                        expiry: describeExpiry(form),
                      })
                }
                confirmLabel={t('Save expiry')}
                disabled={!ready}
                onConfirm={() =>
                  save(variables).then((res) => {
                    if (res.data) {
                      notify(
                        t('Coin expiry: {describeExpiry}.', {
                          describeExpiry: describeExpiry(res.data.setCoinExpiry as CoinExpiry),
                        }),
                      );
                      props.onDone();
                    }
                  })
                }
              >
                {t('Save')}
              </ConfirmButton>
            </Group>
            <ErrorAlert error={state.error} />
          </>
        )}
      </Stack>
    </Card>
  );
}
