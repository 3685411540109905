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
  none: { label: 'None', rule: 'no jurisdiction rule on incentives' },
  UKGC: {
    label: 'UK Gambling Commission (UKGC)',
    rule: 'no mixed-product incentives: a campaign or engine definition names at most one product vertical',
  },
  MGA: {
    label: 'Malta Gaming Authority (MGA)',
    rule: 'no vertical rule; the responsible-gaming gate applies as everywhere',
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
          Jurisdiction
        </Title>
        <Text size="sm">
          Now: {RULES[props.jurisdiction].label}: {RULES[props.jurisdiction].rule}.
        </Text>
        {!props.readOnly && (
          <>
            <Group align="end">
              <Select
                label="Regulator"
                description="The operator answers for naming the regulator that licenses this sub-brand."
                data={Object.entries(RULES).map(([v, r]) => ({ value: v, label: r.label }))}
                value={value}
                onChange={(v) => v && setValue(v as Jurisdiction)}
                w={360}
              />
              <ConfirmButton
                variant="default"
                title="Jurisdiction"
                question={`Set ${RULES[value].label}? From now on: ${RULES[value].rule}.`}
                confirmLabel="Save jurisdiction"
                disabled={value === props.jurisdiction}
                onConfirm={() =>
                  save({ subBrandId: props.subBrandId, jurisdiction: value }).then((res) => {
                    if (!res.data) return;
                    const mixed = res.data.setJurisdiction.mixedIncentives;
                    notify(
                      `Jurisdiction: ${RULES[res.data.setJurisdiction.jurisdiction].label}.` +
                        (mixed.length
                          ? ` ${mixed.length} live incentive(s) span more than one vertical: ${mixed.map((m) => m.name).join(', ')}.`
                          : ''),
                      mixed.length ? 'orange' : 'teal',
                    );
                    props.onDone();
                  })
                }
              >
                Save
              </ConfirmButton>
            </Group>
            <ErrorAlert error={state.error} />
          </>
        )}
      </Stack>
    </Card>
  );
}
