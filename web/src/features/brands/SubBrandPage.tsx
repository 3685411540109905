// One sub-brand (establishment): profile and branding (the marketplace's colours and font, its
// coin's name), market and coin ratio, and its margin, the last level of the price cascade. One
// request reads it all; saving the profile or the margin is audited with before and after.
import {
  Button,
  Card,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { useQuery } from 'urql';
import { Link } from 'wouter';
import { useStaff } from '../../api/session';
import { ErrorAlert } from '../../components/ErrorAlert';
import { notify } from '../../components/notify';
import { Page } from '../../components/Page';
import { graphql, type ResultOf, type VariablesOf } from '../../graphql';
import { MarginEditor, percent } from './BrandsPage';
import { useFormMutation } from '../../api/form-mutation';
import { CoinExpiryEditor } from './CoinExpiryEditor';
import { JurisdictionEditor } from './JurisdictionEditor';
import { t } from '../../i18n';

const STYLE_KEYS = [
  'backgroundPrimary',
  'foregroundPrimary',
  'backgroundSecondary',
  'foregroundSecondary',
  'backgroundSidebarPrimary',
  'backgroundSidebarSecondary',
  'marketplaceBackground',
  'marketplaceForegroundPrimary',
  'marketplaceForegroundSecondary',
  'marketplaceBackgroundCard',
  'marketplaceForegroundCardPrimary',
  'marketplaceForegroundCardSecondary',
  'marketplaceForegroundCardTertiary',
  'font',
] as const;
type StyleKey = (typeof STYLE_KEYS)[number];

const SubBrandQuery = graphql(`
  query SubBrandDetail($id: ID!, $admin: Boolean!) {
    establishment(id: $id) {
      id
      name
      description
      email
      location
      status
      locale
      imageUrl
      thumbnailUrl
      currency
      country
      coinName
      coinsPerUnit
      frameOrigins
      coinExpiry {
        policy
        days
        month
        day
      }
      jurisdiction
      style {
        backgroundPrimary
        foregroundPrimary
        backgroundSecondary
        foregroundSecondary
        backgroundSidebarPrimary
        backgroundSidebarSecondary
        marketplaceBackground
        marketplaceForegroundPrimary
        marketplaceForegroundSecondary
        marketplaceBackgroundCard
        marketplaceForegroundCardPrimary
        marketplaceForegroundCardSecondary
        marketplaceForegroundCardTertiary
        font
      }
    }
    subBrand(id: $id) @include(if: $admin) {
      id
      marginBps
      brand {
        id
        name
        marginBps
      }
    }
    platformMarginBps @include(if: $admin)
  }
`);
type Establishment = ResultOf<typeof SubBrandQuery>['establishment'];

const UpdateMutation = graphql(`
  mutation UpdateEstablishment($id: ID!, $input: UpdateEstablishmentInput!) {
    updateEstablishment(id: $id, input: $input) {
      id
      name
    }
  }
`);
type Input = VariablesOf<typeof UpdateMutation>['input'];

/** backgroundPrimary → "Background primary". */
const label = (k: string) => {
  const words = k.replace(/([A-Z])/g, ' $1').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

export default function SubBrandPage(props: { id: string }) {
  const staff = useStaff();
  const [result, refetch] = useQuery({
    query: SubBrandQuery,
    // Margins are the platform's business: only its admins ask for them.
    variables: { id: props.id, admin: staff.isPlatformAdmin },
  });
  const e = result.data?.establishment;
  const sub = result.data?.subBrand;
  return (
    <Page
      title={e ? e.name : 'Sub-brand'}
      actions={
        staff.isPlatformAdmin && (
          <Button component={Link} href="/brands" variant="default">
            {t('All brands')}
          </Button>
        )
      }
    >
      <ErrorAlert error={result.error} />
      {e && (
        <ProfileForm
          key={e.id}
          establishment={e}
          admin={staff.isPlatformAdmin}
          readOnly={staff.readOnly}
        />
      )}
      {e && (
        <CoinExpiryEditor
          key={`${e.id}-expiry`}
          subBrandId={e.id}
          expiry={e.coinExpiry}
          // Platform and brand admins set it (setCoinExpiry says who); others read it.
          readOnly={
            staff.readOnly || !(staff.isPlatformAdmin || staff.staff.role === 'brand_admin')
          }
          onDone={() => refetch({ requestPolicy: 'network-only' })}
        />
      )}
      {e && (
        <JurisdictionEditor
          key={`${e.id}-jurisdiction-${e.jurisdiction}`}
          subBrandId={e.id}
          jurisdiction={e.jurisdiction}
          // Platform admins alone set it (setJurisdiction says so too); others read it.
          readOnly={staff.readOnly || !staff.isPlatformAdmin}
          onDone={() => refetch({ requestPolicy: 'network-only' })}
        />
      )}
      {sub && result.data?.platformMarginBps !== undefined && (
        <Card withBorder>
          <Stack>
            <Title order={2} size="h4">
              {t('Price cascade')}
            </Title>
            <MarginEditor
              label={t('Margin of {name}', { name: e?.name ?? t('this sub-brand') })}
              description={t("After the platform's {percent} and {name}'s {marginBps}.", {
                percent: percent(result.data.platformMarginBps ?? 0),
                name: sub.brand.name,
                marginBps: percent(sub.brand.marginBps),
              })}
              bps={sub.marginBps}
              confirm={(bps) =>
                t("Set this sub-brand's margin to {percent}? Its coin prices change.", {
                  percent: percent(bps),
                })
              }
              variables={(bps) => ({ subBrand: { id: sub.id, bps } })}
              onDone={() => refetch({ requestPolicy: 'network-only' })}
            />
          </Stack>
        </Card>
      )}
    </Page>
  );
}

function ProfileForm(props: {
  establishment: NonNullable<Establishment>;
  admin: boolean;
  readOnly: boolean;
}) {
  const e = props.establishment;
  const initial = {
    name: e.name,
    description: e.description ?? '',
    email: e.email ?? '',
    location: e.location ?? '',
    status: e.status,
    locale: e.locale,
    imageUrl: e.imageUrl ?? '',
    thumbnailUrl: e.thumbnailUrl ?? '',
    currency: e.currency,
    coinName: e.coinName,
    coinsPerUnit: e.coinsPerUnit,
    frameOrigins: e.frameOrigins.join('\n'),
    style: Object.fromEntries(STYLE_KEYS.map((k) => [k, e.style[k] ?? ''])) as Record<
      StyleKey,
      string
    >,
  };
  const [form, setForm] = useState(initial);
  useEffect(() => setForm(initial), [e.id]); // eslint-disable-line react-hooks/exhaustive-deps
  const [state, update] = useFormMutation(UpdateMutation);
  const set = <K extends keyof typeof form>(k: K, v: (typeof form)[K]) =>
    setForm((f) => ({ ...f, [k]: v }));
  const orNull = (v: string) => (v.trim() ? v.trim() : null);
  const submit = async () => {
    const style = Object.fromEntries(
      STYLE_KEYS.filter((k) => form.style[k].trim()).map((k) => [k, form.style[k].trim()]),
    );
    const input: Input = {
      name: form.name,
      description: orNull(form.description),
      email: orNull(form.email),
      location: orNull(form.location),
      status: form.status,
      locale: form.locale,
      imageUrl: orNull(form.imageUrl),
      thumbnailUrl: orNull(form.thumbnailUrl),
      currency: form.currency,
      coinName: form.coinName,
      style,
      frameOrigins: form.frameOrigins
        .split(/\s+/)
        .map((o) => o.trim().replace(/\/+$/, ''))
        .filter(Boolean),
      ...(props.admin ? { coinsPerUnit: form.coinsPerUnit } : {}),
    };
    const res = await update({ id: e.id, input });
    if (res.data) notify(t('Saved {name}.', { name: res.data.updateEstablishment.name }));
  };
  return (
    <Card withBorder>
      <form
        onSubmit={(ev) => {
          ev.preventDefault();
          void submit();
        }}
      >
        <Stack>
          <Title order={2} size="h4">
            {t('Profile and branding')}
          </Title>
          <SimpleGrid cols={{ base: 1, md: 3 }}>
            <TextInput
              label={t('Name')}
              required
              value={form.name}
              onChange={(ev) => set('name', ev.currentTarget.value)}
            />
            <TextInput
              label={t('Contact e-mail')}
              value={form.email}
              onChange={(ev) => set('email', ev.currentTarget.value)}
            />
            <TextInput
              label={t('Location')}
              value={form.location}
              onChange={(ev) => set('location', ev.currentTarget.value)}
            />
            <Select
              label={t('Status')}
              data={['active', 'inactive', 'suspended']}
              value={form.status}
              onChange={(v) => v && set('status', v as typeof form.status)}
            />
            <TextInput
              label={t('Language (BCP 47)')}
              value={form.locale}
              onChange={(ev) => set('locale', ev.currentTarget.value)}
            />
            <TextInput
              label={t('Coin name')}
              value={form.coinName}
              onChange={(ev) => set('coinName', ev.currentTarget.value)}
            />
            <TextInput
              label={t('Currency')}
              description={props.admin ? 'ISO 4217' : t('Platform admins change it')}
              value={form.currency}
              disabled={!props.admin}
              onChange={(ev) => set('currency', ev.currentTarget.value.toUpperCase())}
            />
            <NumberInput
              label={t('Coins per unit of currency')}
              description={
                props.admin ? t('Coin prices scale with it') : t('Platform admins change it')
              }
              min={1}
              allowDecimal={false}
              disabled={!props.admin}
              value={form.coinsPerUnit}
              onChange={(v) => typeof v === 'number' && set('coinsPerUnit', v)}
            />
            <TextInput
              label={t('Image URL')}
              value={form.imageUrl}
              onChange={(ev) => set('imageUrl', ev.currentTarget.value)}
            />
          </SimpleGrid>
          <Textarea
            label={t('Description')}
            autosize
            minRows={2}
            value={form.description}
            onChange={(ev) => set('description', ev.currentTarget.value)}
          />
          <Textarea
            label={t('Sites that may embed the player marketplace')}
            description={t(
              'One origin per line, e.g. https://casino.example. None: no site may frame it in live (test sessions may be framed anywhere).',
            )}
            autosize
            minRows={2}
            value={form.frameOrigins}
            onChange={(ev) => set('frameOrigins', ev.currentTarget.value)}
          />
          <Title order={3} size="h5">
            {t('Marketplace style')}
          </Title>
          <SimpleGrid cols={{ base: 2, md: 4 }}>
            {STYLE_KEYS.map((k) => (
              <TextInput
                key={k}
                label={label(k)}
                placeholder={k === 'font' ? 'Inter' : '#112233'}
                value={form.style[k]}
                onChange={(ev) => {
                  const v = ev.currentTarget.value;
                  setForm((f) => ({ ...f, style: { ...f.style, [k]: v } }));
                }}
                leftSection={
                  k !== 'font' && /^#[0-9a-f]{3,8}$/i.test(form.style[k]) ? (
                    <span
                      aria-hidden
                      style={{
                        width: 14,
                        height: 14,
                        borderRadius: 3,
                        background: form.style[k],
                        border: '1px solid #888',
                      }}
                    />
                  ) : undefined
                }
              />
            ))}
          </SimpleGrid>
          <ErrorAlert error={state.error} />
          <Group justify="flex-end">
            <Button type="submit" loading={state.fetching} disabled={props.readOnly}>
              {t('Save profile')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
