// The campaign form, for a new campaign and an existing one: texts, type, dates (a preset or
// custom), multiplier, budget, prizes per type, targeting as JSON, product verticals, template
// flag, accepted terms.
// Each refusal from the engine is shown under the input it names (`prizes.1.rank`…).
import {
  ActionIcon,
  Button,
  Card,
  Checkbox,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useState } from 'react';
import type { CombinedError } from 'urql';
import { ErrorAlert } from '../../components/ErrorAlert';
import { fieldErrors } from '../../components/field-errors';
import { numberOr } from '../../components/format';
import {
  bodyOf,
  DURATION_LABEL,
  DURATIONS,
  prizeRow,
  VERTICALS,
  type CampaignForm,
  type CampaignType,
  type PrizeRow,
  type Vertical,
} from './campaign-form';
import { TYPE_LABEL } from './documents';
import { t } from '../../i18n';

export function CampaignEditor(props: {
  initial: CampaignForm;
  /** Running or paused: only texts, budget and a later end may change (the engine says so too). */
  started?: boolean;
  submitLabel: string;
  submitting: boolean;
  error: CombinedError | undefined;
  onSubmit: (body: Record<string, unknown>) => void;
}) {
  const [f, setF] = useState(props.initial);
  const [localTargetingError, setLocalTargetingError] = useState<string | null>(null);
  const set = <K extends keyof CampaignForm>(k: K, v: CampaignForm[K]) =>
    setF((old) => ({ ...old, [k]: v }));
  const setPrize = (i: number, p: Partial<PrizeRow>) =>
    set(
      'prizes',
      f.prizes.map((old, j) => (j === i ? { ...old, ...p } : old)),
    );
  const errs = fieldErrors(props.error);
  const locked = props.started === true;
  const submit = () => {
    const shaped = bodyOf(f);
    if ('targetingError' in shaped) return setLocalTargetingError(shaped.targetingError);
    setLocalTargetingError(null);
    props.onSubmit(shaped.body);
  };
  return (
    <Card withBorder>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Stack>
          {locked && (
            <Text size="sm" c="gray.7">
              {t(
                'This campaign has started: only its texts, its budget and a later end can change.',
              )}
            </Text>
          )}
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <TextInput
              label={t('Title')}
              required
              value={f.title}
              onChange={(e) => set('title', e.currentTarget.value)}
              error={errs.of('title')}
            />
            <TextInput
              label={t('Pop-up title')}
              description={t("Shown to players in the campaign's pop-up (optional).")}
              value={f.modalTitle}
              onChange={(e) => set('modalTitle', e.currentTarget.value)}
              error={errs.of('modalTitle')}
            />
            <Select
              label={t('Type')}
              data={Object.entries(TYPE_LABEL).map(([value, label]) => ({
                value,
                label: t(label),
              }))}
              value={f.type}
              disabled={locked}
              onChange={(v) => v && set('type', v as CampaignType)}
              error={errs.of('type')}
            />
            <Select
              label={t('When')}
              description={t('A preset sets the dates from today when the campaign is saved.')}
              data={DURATIONS.map((d) => ({ value: d, label: t(DURATION_LABEL[d]) }))}
              value={f.duration}
              disabled={locked}
              onChange={(v) => v && set('duration', v as CampaignForm['duration'])}
              error={errs.of('duration')}
            />
            {f.duration === 'custom' && (
              <>
                <TextInput
                  label={t('Start (UTC)')}
                  description={t('YYYY-MM-DD, or an instant ending in Z.')}
                  placeholder="2026-12-01"
                  value={f.startDate}
                  disabled={locked}
                  onChange={(e) => set('startDate', e.currentTarget.value.trim())}
                  error={errs.of('startDate')}
                />
                <TextInput
                  label={t('End (UTC, that day included)')}
                  description={t('YYYY-MM-DD, or an instant ending in Z (exclusive).')}
                  placeholder="2026-12-31"
                  value={f.endDate}
                  onChange={(e) => set('endDate', e.currentTarget.value.trim())}
                  error={errs.of('endDate')}
                />
              </>
            )}
            <NumberInput
              label={t('Budget (coins)')}
              description={t('The most this campaign may award in all; empty for no cap.')}
              min={0}
              allowDecimal={false}
              value={f.budget}
              onChange={(v) => set('budget', numberOr(v))}
              error={errs.of('budget')}
            />
            {f.type === 'tournament' && (
              <NumberInput
                label={t('Points multiplier')}
                description={t('Tournament points per activity point (1–1000).')}
                min={1}
                max={1000}
                allowDecimal={false}
                disabled={locked}
                value={f.multiplier}
                onChange={(v) => set('multiplier', numberOr(v))}
                error={errs.of('multiplier')}
              />
            )}
          </SimpleGrid>
          <Textarea
            label={t('Description')}
            autosize
            minRows={2}
            value={f.description}
            onChange={(e) => set('description', e.currentTarget.value)}
            error={errs.of('description')}
          />
          <Textarea
            label={t('Legal terms')}
            autosize
            minRows={2}
            value={f.legalTerms}
            onChange={(e) => set('legalTerms', e.currentTarget.value)}
            error={errs.of('legalTerms')}
          />
          <Prizes
            type={f.type}
            prizes={f.prizes}
            locked={locked}
            setPrize={setPrize}
            setPrizes={(p) => set('prizes', p)}
            errorOf={errs.of}
          />
          <Textarea
            label={t('Targeting (JSON)')}
            description={t(
              'Empty: every active player. Else { "conditions": [{ "parameter", "operator", "value", "groupId", "logic" }], "includedUsers": [], "excludedUsers": [], "conditionsExcludeUsers": false } (docs/campaigns.md).',
            )}
            autosize
            minRows={2}
            disabled={locked}
            styles={{ input: { fontFamily: 'monospace' } }}
            value={f.targeting}
            onChange={(e) => set('targeting', e.currentTarget.value)}
            error={localTargetingError ?? errs.under('targeting')}
          />
          <Checkbox.Group
            label={t('Product verticals')}
            description={t(
              'Whose play qualifies. A UKGC sub-brand takes at most one: mixed-product incentives are refused.',
            )}
            value={f.verticals}
            onChange={(v) => set('verticals', v as Vertical[])}
            error={errs.under('verticals')}
          >
            <Group mt="xs">
              {VERTICALS.map((v) => (
                <Checkbox key={v} value={v} label={v} disabled={locked} />
              ))}
            </Group>
          </Checkbox.Group>
          <Group>
            <Checkbox
              label={t('Template (never runs; new campaigns are made from it)')}
              checked={f.isTemplate}
              disabled={locked}
              onChange={(e) => set('isTemplate', e.currentTarget.checked)}
              error={errs.of('isTemplate')}
              aria-invalid={errs.of('isTemplate') ? true : undefined}
            />
            <Checkbox
              label={t('The legal terms are accepted')}
              checked={f.termsAccepted}
              onChange={(e) => set('termsAccepted', e.currentTarget.checked)}
              error={errs.of('termsAccepted')}
              // Mantine marks text inputs invalid, not checkboxes; the error is described by id.
              aria-invalid={errs.of('termsAccepted') ? true : undefined}
            />
          </Group>
          {/* The message in full too: a rule across fields names no single input. */}
          <ErrorAlert error={props.error} />
          <Group justify="flex-end">
            <Button type="submit" loading={props.submitting}>
              {props.submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

function Prizes(props: {
  type: CampaignType;
  prizes: PrizeRow[];
  locked: boolean;
  setPrize: (i: number, p: Partial<PrizeRow>) => void;
  setPrizes: (p: PrizeRow[]) => void;
  errorOf: (field: string) => string | undefined;
}) {
  const { type, prizes, locked, errorOf } = props;
  const key = type === 'tournament' ? 'rank' : type === 'daily_reward_progressive' ? 'day' : null;
  const listError = errorOf('prizes');
  return (
    <Stack gap="xs">
      <Title order={2} size="h5">
        {t('Prizes')}
      </Title>
      <Text size="sm" c="gray.7">
        {type === 'tournament'
          ? t('By final rank: "1" or a range "4-10", not overlapping.')
          : type === 'daily_reward_progressive'
            ? t('By streak day (1, 2, 3…); past the last day its prize repeats.')
            : t('One prize, given on each day a player qualifies.')}
      </Text>
      <Table>
        <Table.Thead>
          <Table.Tr>
            {key && <Table.Th>{key === 'rank' ? 'Rank' : 'Day'}</Table.Th>}
            <Table.Th>{t('Coins')}</Table.Th>
            <Table.Th>{t('Product id')}</Table.Th>
            <Table.Th>{t('Units')}</Table.Th>
            <Table.Th>{t('Label')}</Table.Th>
            <Table.Th>
              <VisuallyHidden>{t('Remove')}</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {prizes.map((p, i) => {
            const n = i + 1;
            const at = (field: string) => errorOf(`prizes.${i}.${field}`);
            return (
              <Table.Tr key={i} data-testid="prize-row">
                {key === 'rank' && (
                  <Table.Td>
                    <TextInput
                      aria-label={t('Rank of prize {n}', { n })}
                      value={p.rank}
                      disabled={locked}
                      onChange={(e) => props.setPrize(i, { rank: e.currentTarget.value })}
                      error={at('rank')}
                      w={110}
                    />
                  </Table.Td>
                )}
                {key === 'day' && (
                  <Table.Td>
                    <NumberInput
                      aria-label={t('Day of prize {n}', { n })}
                      min={1}
                      allowDecimal={false}
                      value={p.day}
                      disabled={locked}
                      onChange={(v) => props.setPrize(i, { day: numberOr(v) })}
                      error={at('day')}
                      w={90}
                    />
                  </Table.Td>
                )}
                <Table.Td>
                  <NumberInput
                    aria-label={t('Coins of prize {n}', { n })}
                    min={0}
                    allowDecimal={false}
                    value={p.coinPrize}
                    disabled={locked}
                    onChange={(v) => props.setPrize(i, { coinPrize: numberOr(v) })}
                    error={at('coinPrize') ?? errorOf(`prizes.${i}`)}
                    w={120}
                  />
                </Table.Td>
                <Table.Td>
                  <TextInput
                    aria-label={t('Product id of prize {n}', { n })}
                    placeholder={t('none')}
                    value={p.productPrize}
                    disabled={locked}
                    onChange={(e) => props.setPrize(i, { productPrize: e.currentTarget.value })}
                    error={at('productPrize')}
                  />
                </Table.Td>
                <Table.Td>
                  <NumberInput
                    aria-label={t('Units of prize {n}', { n })}
                    min={0}
                    max={20}
                    allowDecimal={false}
                    value={p.quantity}
                    disabled={locked}
                    onChange={(v) => props.setPrize(i, { quantity: numberOr(v) })}
                    error={at('quantity')}
                    w={80}
                  />
                </Table.Td>
                <Table.Td>
                  <TextInput
                    aria-label={t('Label of prize {n}', { n })}
                    placeholder={t('"game:wheel" grants plays')}
                    value={p.catalogPrize}
                    disabled={locked}
                    onChange={(e) => props.setPrize(i, { catalogPrize: e.currentTarget.value })}
                    error={at('catalogPrize')}
                  />
                </Table.Td>
                <Table.Td>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={t('Remove prize {n}', { n })}
                    disabled={locked || prizes.length === 1}
                    onClick={() => props.setPrizes(prizes.filter((_, j) => j !== i))}
                  >
                    ×
                  </ActionIcon>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      {listError && (
        <Text size="sm" c="red.8" role="alert">
          {t('Prizes: {listError}', { listError })}
        </Text>
      )}
      <Group>
        <Button
          variant="default"
          size="xs"
          disabled={locked}
          onClick={() => {
            const last = prizes[prizes.length - 1];
            props.setPrizes([
              ...prizes,
              prizeRow({
                day: type === 'daily_reward_progressive' ? Number(last?.day || 0) + 1 : 0,
              }),
            ]);
          }}
        >
          {t('Add a prize')}
        </Button>
      </Group>
    </Stack>
  );
}
