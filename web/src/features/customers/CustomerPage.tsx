// One customer: profile, balance, responsible-gaming state, holds, lots and expiries, wallet history (who moved the coins, operators by name) and a
// coin adjustment with a reason. One GraphQL request for the screen.
import {
  Anchor,
  Badge,
  Card,
  Grid,
  Group,
  NumberInput,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useQuery } from 'urql';
import { Link } from 'wouter';
import { useSession, useStaff } from '../../api/session';
import { ConfirmButton } from '../../components/Confirm';
import { ErrorAlert } from '../../components/ErrorAlert';
import { coins, count, signedCoins, when } from '../../components/format';
import { Field } from '../../components/Field';
import { Page } from '../../components/Page';
import { graphql } from '../../graphql';
import { customersUrl } from './routes';
import { notify } from '../../components/notify';
import { useFormMutation } from '../../api/form-mutation';
import { WalletFragment, WalletLots } from './WalletLots';
import { ResponsibleGaming, RgFragment } from './ResponsibleGaming';
import { Timeline } from '../../components/Timeline';
import { msg, t } from '../../i18n';

const CustomerQuery = graphql(
  `
    query Customer($id: ID!) {
      customer(id: $id) {
        id
        firstName
        lastName
        nickname
        email
        phone
        externalId
        country
        status
        coinBalance
        orderCount
        createdAt
        coins {
          ...Wallet
        }
        ...Rg
        coinMovements(first: 50) {
          edges {
            node {
              id
              delta
              reason
              source
              balanceAfter
              createdAt
              apiKeyId
              operator {
                email
              }
            }
          }
        }
      }
    }
  `,
  [WalletFragment, RgFragment],
);

// The ledger's `source` is the partner API's word for what moved the coins; an operator reads it
// in words, and a person's adjustment from this screen (recorded as `api`, the same mutation a
// partner calls) as theirs (B12).
const SOURCES: Record<string, string> = {
  api: msg('Partner API'),
  bulk: msg('Bulk adjustment'),
  engine: msg('Rule engine'),
  order: msg('Order'),
  refund: msg('Refund'),
  campaign: msg('Campaign'),
  expiry: msg('Expiry'),
};
const sourceLabel = (m: { source: string; operator?: { email: string } | null }) =>
  m.source === 'api' && m.operator ? t('Backoffice adjustment') : t(SOURCES[m.source] ?? m.source);

const AdjustMutation = graphql(`
  mutation Adjust($customerId: ID!, $delta: SafeInt!, $reason: String) {
    adjustCustomerCoins(customerId: $customerId, delta: $delta, reason: $reason) {
      id
      balanceAfter
    }
  }
`);

export default function CustomerPage(props: { id: string }) {
  const staff = useStaff();
  const { subBrandId, environment } = useSession();
  const [result, refetch] = useQuery({ query: CustomerQuery, variables: { id: props.id } });
  const [adjusting, adjust] = useFormMutation(AdjustMutation);
  const [delta, setDelta] = useState<number | ''>('');
  const [reason, setReason] = useState('');
  const c = result.data?.customer;

  if (result.error && !c)
    return (
      <Page title={t('Customer')}>
        <ErrorAlert error={result.error} title={t('Customer not found')} />
        <Anchor component={Link} href={customersUrl()}>
          {t('Back to customers')}
        </Anchor>
      </Page>
    );
  if (!c) return <Page title={t('Customer')}>{null}</Page>;

  const submit = async () => {
    if (delta === '' || delta === 0) return;
    const res = await adjust({ customerId: c.id, delta, reason: reason.trim() });
    if (!res.error) {
      notify(
        t('Balance is now {balance}.', {
          balance: coins(res.data!.adjustCustomerCoins.balanceAfter),
        }),
      );
      setDelta('');
      setReason('');
      refetch({ requestPolicy: 'network-only' });
    }
  };

  return (
    <Page title={`${c.firstName} ${c.lastName}`}>
      <Grid>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Card withBorder>
            <SimpleGrid cols={2} spacing="xs">
              <Field label={t('Balance')} value={coins(c.coinBalance)} testId="balance" />
              <Field label={t('Status')} value={<Badge>{c.status}</Badge>} />
              <Field label={t('E-mail')} value={c.email ?? '—'} />
              <Field label={t('Phone')} value={c.phone ?? '—'} />
              <Field label={t('External id')} value={c.externalId ?? '—'} />
              <Field label={t('Country')} value={c.country ?? '—'} />
              <Field label={t('Orders')} value={String(c.orderCount)} />
              <Field label={t('Created')} value={when(c.createdAt)} />
            </SimpleGrid>
          </Card>
        </Grid.Col>
        {!staff.readOnly && (
          <Grid.Col span={{ base: 12, md: 5 }}>
            <Card withBorder>
              <Stack gap="xs">
                <Title order={2} size="h4">
                  {t('Adjust coins')}
                </Title>
                <NumberInput
                  hideControls
                  label={t('Coins (negative to debit)')}
                  value={delta}
                  onChange={(v) => setDelta(typeof v === 'number' ? v : '')}
                  allowDecimal={false}
                />
                <TextInput
                  label={t('Reason')}
                  description={t('Shown in the wallet history and the audit trail')}
                  required
                  value={reason}
                  onChange={(e) => setReason(e.currentTarget.value)}
                />
                <ErrorAlert error={adjusting.error} />
                <Group justify="flex-end">
                  <ConfirmButton
                    title={t('Adjust coins')}
                    question={(() => {
                      const v = {
                        coins: coins(Math.abs(Number(delta) || 0)),
                        name: `${c.firstName} ${c.lastName}`,
                        reason: reason.trim(),
                      };
                      return delta !== '' && delta > 0
                        ? t('Credit {coins} to {name}? Reason: “{reason}”.', v)
                        : t('Debit {coins} from {name}? Reason: “{reason}”.', v);
                    })()}
                    confirmLabel={t('Adjust')}
                    onConfirm={submit}
                    loading={adjusting.fetching}
                    disabled={delta === '' || delta === 0 || !reason.trim()}
                  >
                    {t('Adjust…')}
                  </ConfirmButton>
                </Group>
              </Stack>
            </Card>
          </Grid.Col>
        )}
      </Grid>
      <ResponsibleGaming
        customer={c}
        onChanged={() => refetch({ requestPolicy: 'network-only' })}
      />
      <WalletLots wallet={c.coins} />
      <Timeline subject={{ customerId: c.id }} />
      <Title order={2} size="h4">
        {t('Wallet history')}
      </Title>
      <Anchor
        size="sm"
        download
        href={`/admin/api/movements.csv?${new URLSearchParams({ environment, ...(subBrandId ? { subBrandId } : {}), customerId: c.id, from: c.createdAt })}`}
      >
        {t("Download all of this customer's movements (CSV)")}
      </Anchor>
      <Table striped data-testid="movements">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('When')}</Table.Th>
            <Table.Th ta="right">{t('Coins')}</Table.Th>
            <Table.Th ta="right">{t('Balance after')}</Table.Th>
            <Table.Th>{t('Source')}</Table.Th>
            <Table.Th>{t('Reason')}</Table.Th>
            <Table.Th>{t('By')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {c.coinMovements.edges.map(({ node: m }) => (
            <Table.Tr key={m.id}>
              <Table.Td>{when(m.createdAt)}</Table.Td>
              <Table.Td ta="right">{signedCoins(m.delta)}</Table.Td>
              <Table.Td ta="right">{count(m.balanceAfter)}</Table.Td>
              <Table.Td>{sourceLabel(m)}</Table.Td>
              <Table.Td>{m.reason ?? '—'}</Table.Td>
              <Table.Td>{m.operator?.email ?? (m.apiKeyId ? 'API key' : '—')}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {c.coinMovements.edges.length === 0 && <Text c="gray.7">{t('No movements yet.')}</Text>}
    </Page>
  );
}
