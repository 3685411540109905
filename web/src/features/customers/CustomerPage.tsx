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
import { coins, signedCoins, when } from '../../components/format';
import { Field } from '../../components/Field';
import { Page } from '../../components/Page';
import { graphql } from '../../graphql';
import { customersUrl } from './routes';
import { notify } from '../../components/notify';
import { useFormMutation } from '../../api/form-mutation';
import { WalletFragment, WalletLots } from './WalletLots';
import { ResponsibleGaming, RgFragment } from './ResponsibleGaming';
import { Timeline } from './Timeline';

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
  api: 'Partner API',
  bulk: 'Bulk adjustment',
  engine: 'Rule engine',
  order: 'Order',
  refund: 'Refund',
  campaign: 'Campaign',
  expiry: 'Expiry',
};
const sourceLabel = (m: { source: string; operator?: { email: string } | null }) =>
  m.source === 'api' && m.operator ? 'Backoffice adjustment' : (SOURCES[m.source] ?? m.source);

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
      <Page title="Customer">
        <ErrorAlert error={result.error} title="Customer not found" />
        <Anchor component={Link} href={customersUrl()}>
          Back to customers
        </Anchor>
      </Page>
    );
  if (!c) return <Page title="Customer">{null}</Page>;

  const submit = async () => {
    if (delta === '' || delta === 0) return;
    const res = await adjust({ customerId: c.id, delta, reason: reason.trim() });
    if (!res.error) {
      notify(`Balance is now ${coins(res.data!.adjustCustomerCoins.balanceAfter)}.`);
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
              <Field label="Balance" value={coins(c.coinBalance)} testId="balance" />
              <Field label="Status" value={<Badge>{c.status}</Badge>} />
              <Field label="E-mail" value={c.email ?? '—'} />
              <Field label="Phone" value={c.phone ?? '—'} />
              <Field label="External id" value={c.externalId ?? '—'} />
              <Field label="Country" value={c.country ?? '—'} />
              <Field label="Orders" value={String(c.orderCount)} />
              <Field label="Created" value={when(c.createdAt)} />
            </SimpleGrid>
          </Card>
        </Grid.Col>
        {!staff.readOnly && (
          <Grid.Col span={{ base: 12, md: 5 }}>
            <Card withBorder>
              <Stack gap="xs">
                <Title order={2} size="h4">
                  Adjust coins
                </Title>
                <NumberInput
                  hideControls
                  label="Coins (negative to debit)"
                  value={delta}
                  onChange={(v) => setDelta(typeof v === 'number' ? v : '')}
                  allowDecimal={false}
                />
                <TextInput
                  label="Reason"
                  description="Shown in the wallet history and the audit trail"
                  required
                  value={reason}
                  onChange={(e) => setReason(e.currentTarget.value)}
                />
                <ErrorAlert error={adjusting.error} />
                <Group justify="flex-end">
                  <ConfirmButton
                    title="Adjust coins"
                    question={`${delta !== '' && delta > 0 ? 'Credit' : 'Debit'} ${coins(Math.abs(Number(delta) || 0))} ${delta !== '' && delta > 0 ? 'to' : 'from'} ${c.firstName} ${c.lastName}? Reason: “${reason.trim()}”.`}
                    confirmLabel="Adjust"
                    onConfirm={submit}
                    loading={adjusting.fetching}
                    disabled={delta === '' || delta === 0 || !reason.trim()}
                  >
                    Adjust…
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
      <Timeline customerId={c.id} />
      <Title order={2} size="h4">
        Wallet history
      </Title>
      <Anchor
        size="sm"
        download
        href={`/admin/api/movements.csv?${new URLSearchParams({ environment, ...(subBrandId ? { subBrandId } : {}), customerId: c.id, from: c.createdAt })}`}
      >
        Download all of this customer&apos;s movements (CSV)
      </Anchor>
      <Table striped data-testid="movements">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>When</Table.Th>
            <Table.Th ta="right">Coins</Table.Th>
            <Table.Th ta="right">Balance after</Table.Th>
            <Table.Th>Source</Table.Th>
            <Table.Th>Reason</Table.Th>
            <Table.Th>By</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {c.coinMovements.edges.map(({ node: m }) => (
            <Table.Tr key={m.id}>
              <Table.Td>{when(m.createdAt)}</Table.Td>
              <Table.Td ta="right">{signedCoins(m.delta)}</Table.Td>
              <Table.Td ta="right">{m.balanceAfter.toLocaleString('en-GB')}</Table.Td>
              <Table.Td>{sourceLabel(m)}</Table.Td>
              <Table.Td>{m.reason ?? '—'}</Table.Td>
              <Table.Td>{m.operator?.email ?? (m.apiKeyId ? 'API key' : '—')}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {c.coinMovements.edges.length === 0 && <Text c="gray.7">No movements yet.</Text>}
    </Page>
  );
}
