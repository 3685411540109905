// One's own account: who and where, and two-factor sign-in (set up, new recovery codes, off).
import { Card, Stack, Table, Text } from '@mantine/core';
import { subBrandLabel, useStaff } from '../../api/session';
import { ROLE_LABEL } from '../../app/screens';
import { Page } from '../../components/Page';
import { t } from '../../i18n';
import { TwoFactorCard } from './TwoFactor';

export default function AccountPage() {
  const staff = useStaff();
  const own = staff.subBrands.find((s) => s.id === staff.staff.subBrandId);
  return (
    <Page title={t('My account')}>
      <Stack maw={720}>
        <Card withBorder>
          <Table variant="vertical" withRowBorders={false}>
            <Table.Tbody>
              <Table.Tr>
                <Table.Th w={160}>{t('E-mail')}</Table.Th>
                <Table.Td>{staff.staff.email}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>{t('Role')}</Table.Th>
                <Table.Td>{t(ROLE_LABEL[staff.staff.role])}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>{t('Where')}</Table.Th>
                <Table.Td>
                  {own
                    ? subBrandLabel(own)
                    : t('{n} sub-brand(s) you can act on', { n: staff.subBrands.length })}
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
          <Text size="xs" c="gray.7" mt="xs">
            {t('Your role and e-mail are changed by an admin, on the Staff screen.')}
          </Text>
        </Card>
        <TwoFactorCard />
      </Stack>
    </Page>
  );
}
