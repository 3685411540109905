// What a screen opened by URL says to a role it is not for (B7): in words, with the way back,
// instead of a form whose every action the server refuses.
import { Anchor, Text } from '@mantine/core';
import { Link } from 'wouter';
import { useStaff } from '../api/session';
import { Page } from '../components/Page';
import { t } from '../i18n';
import { ROLE_LABEL, openTo, type Screen } from './screens';

export function NotForYourRole(props: { screen: Screen }) {
  const staff = useStaff();
  return (
    <Page title={t(props.screen.label)}>
      <Text data-testid="not-for-your-role">
        {t(
          'This screen is for {who}. You are signed in as {role}; an admin of your brand can change your role if you need it.',
          { who: t(openTo(props.screen)), role: t(ROLE_LABEL[staff.staff.role]) },
        )}
      </Text>
      <Anchor component={Link} href="/">
        {t('Back to the dashboard')}
      </Anchor>
    </Page>
  );
}
