// What a screen opened by URL says to a role it is not for (B7): in words, with the way back,
// instead of a form whose every action the server refuses.
import { Anchor, Text } from '@mantine/core';
import { Link } from 'wouter';
import { useStaff } from '../api/session';
import { Page } from '../components/Page';
import { ROLE_LABEL, openTo, type Screen } from './screens';

export function NotForYourRole(props: { screen: Screen }) {
  const staff = useStaff();
  return (
    <Page title={props.screen.label}>
      <Text data-testid="not-for-your-role">
        This screen is for {openTo(props.screen)}. You are signed in as{' '}
        {ROLE_LABEL[staff.staff.role]}; an admin of your brand can change your role if you need it.
      </Text>
      <Anchor component={Link} href="/">
        Back to the dashboard
      </Anchor>
    </Page>
  );
}
