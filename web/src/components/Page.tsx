import { Group, Stack, Title } from '@mantine/core';
import { useEffect, type ReactNode } from 'react';
import { t } from '../i18n';

/** A screen: its one h1 (also the document title) and its content. */
export function Page(props: { title: string; actions?: ReactNode; children: ReactNode }) {
  useEffect(() => {
    document.title = t('{title} · Partner Rewards backoffice', { title: props.title });
  }, [props.title]);
  return (
    <Stack gap="md">
      <Group justify="space-between" align="center">
        <Title order={1} size="h2">
          {props.title}
        </Title>
        {props.actions}
      </Group>
      {props.children}
    </Stack>
  );
}
