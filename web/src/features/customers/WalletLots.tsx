// A customer's coins beyond the balance (docs/expiry-and-holds.md): what is held and spendable,
// the next expiries, the active holds and the lots with coins left, in the order debits spend them.
import { Badge, Card, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { ResultOf } from 'gql.tada';
import { Field } from '../../components/Field';
import { coins, when } from '../../components/format';
import { graphql } from '../../graphql';
import { t } from '../../i18n';

export const WalletFragment = graphql(`
  fragment Wallet on CoinBalance @_unmask {
    held
    available
    expiring {
      amount
      expiresAt
    }
    holds {
      id
      amount
      reason
      expiresAt
    }
    lots {
      id
      amount
      remaining
      expiresAt
      createdAt
    }
  }
`);

export function WalletLots(props: { wallet: ResultOf<typeof WalletFragment> }) {
  const w = props.wallet;
  const next = w.expiring?.[0];
  return (
    <Card withBorder data-testid="wallet-lots">
      <Stack gap="sm">
        <SimpleGrid cols={3} spacing="xs">
          <Field
            label={t('Available to spend')}
            value={coins(w.available ?? 0)}
            testId="available"
          />
          <Field label={t('On hold')} value={coins(w.held ?? 0)} testId="held" />
          <Field
            label={t('Next expiry')}
            value={next ? `${coins(next.amount)} on ${when(next.expiresAt)}` : 'None'}
            testId="next-expiry"
          />
        </SimpleGrid>
        {w.holds.length > 0 && (
          <>
            <Title order={3} size="h5">
              {t('Holds')}
            </Title>
            <Table data-testid="holds">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th ta="right">{t('Coins')}</Table.Th>
                  <Table.Th>{t('Reason')}</Table.Th>
                  <Table.Th>{t('Releases itself')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {w.holds.map((h) => (
                  <Table.Tr key={h.id}>
                    <Table.Td ta="right">{coins(h.amount)}</Table.Td>
                    <Table.Td>{h.reason ?? '—'}</Table.Td>
                    <Table.Td>{when(h.expiresAt)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </>
        )}
        <Title order={3} size="h5">
          {t('Lots, in the order they are spent')}
        </Title>
        <Table data-testid="lots">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('Credited')}</Table.Th>
              <Table.Th ta="right">{t('Left of')}</Table.Th>
              <Table.Th>{t('Expires')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {w.lots.map((l) => (
              <Table.Tr key={l.id}>
                <Table.Td>{when(l.createdAt)}</Table.Td>
                <Table.Td ta="right">
                  {t('{remaining} of {amount}', {
                    remaining: coins(l.remaining),
                    amount: coins(l.amount),
                  })}
                </Table.Td>
                <Table.Td>
                  {l.expiresAt ? when(l.expiresAt) : <Badge variant="light">{t('never')}</Badge>}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {w.lots.length === 0 && <Text c="gray.7">{t('No coins left.')}</Text>}
      </Stack>
    </Card>
  );
}
