// A sub-brand's jurisdiction (docs/compliance.md, "Jurisdiction rules"): the regulator whose
// incentive rules apply. Platform admins alone set it; everyone else reads it. Setting UKGC is
// refused while a live campaign or definition spans more than one product vertical: the refusal
// lists them.
import { Card, Group, Select, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useFormMutation } from '../../api/form-mutation';
import { ConfirmButton } from '../../components/Confirm';
import { ErrorAlert } from '../../components/ErrorAlert';
import { notify } from '../../components/notify';
import { graphql } from '../../graphql';
import { msg, t } from '../../i18n';

const SetJurisdiction = graphql(`
  mutation SetJurisdiction($subBrandId: ID!, $jurisdiction: Jurisdiction!) {
    setJurisdiction(subBrandId: $subBrandId, jurisdiction: $jurisdiction) {
      jurisdiction
      mixedIncentives {
        kind
        name
        verticals
      }
    }
  }
`);

export type Jurisdiction = 'none' | 'UKGC' | 'MGA';

const RULES: Record<Jurisdiction, { label: string; rule: string }> = {
  none: { label: msg('None'), rule: msg('no jurisdiction rule on incentives') },
  UKGC: {
    label: msg('UK Gambling Commission (UKGC)'),
    rule: msg(
      'no mixed-product incentives: a campaign or engine definition names at most one product vertical',
    ),
  },
  MGA: {
    label: msg('Malta Gaming Authority (MGA)'),
    rule: msg('no vertical rule; the responsible-gaming gate applies as everywhere'),
  },
};

export function JurisdictionEditor(props: {
  subBrandId: string;
  jurisdiction: Jurisdiction;
  readOnly: boolean;
  onDone: () => void;
}) {
  const [value, setValue] = useState<Jurisdiction>(props.jurisdiction);
  const [state, save] = useFormMutation(SetJurisdiction);
  return (
    <Card withBorder data-testid="jurisdiction">
      <Stack gap="xs">
        <Title order={2} size="h4">
          {t('Jurisdiction')}
        </Title>
        <Text size="sm">
          {t('Now: {label}: {rule}.', {
            label: t(RULES[props.jurisdiction].label),
            rule: t(RULES[props.jurisdiction].rule),
          })}
        </Text>
        {!props.readOnly && (
          <>
            <Group align="end">
              <Select
                label={t('Regulator')}
                description={t(
                  'The operator answers for naming the regulator that licenses this sub-brand.',
                )}
                data={Object.entries(RULES).map(([v, r]) => ({ value: v, label: t(r.label) }))}
                value={value}
                onChange={(v) => v && setValue(v as Jurisdiction)}
                w={360}
              />
              <ConfirmButton
                variant="default"
                title={t('Jurisdiction')}
                question={t('Set {label}? From now on: {rule}.', {
                  label: t(RULES[value].label),
                  rule: t(RULES[value].rule),
                })}
                confirmLabel={t('Save jurisdiction')}
                disabled={value === props.jurisdiction}
                onConfirm={() =>
                  save({ subBrandId: props.subBrandId, jurisdiction: value }).then((res) => {
                    if (!res.data) return;
                    const mixed = res.data.setJurisdiction.mixedIncentives;
                    notify(
                      t('Jurisdiction: {label}.', {
                        label: t(RULES[res.data.setJurisdiction.jurisdiction].label),
                      }) +
                        (mixed.length
                          ? ` ${t('{n} live incentive(s) span more than one vertical: {names}.', {
                              n: mixed.length,
                              names: mixed.map((m) => m.name).join(', '),
                            })}`
                          : ''),
                      mixed.length ? 'orange' : 'teal',
                    );
                    props.onDone();
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
