// A labelled value of a record's page: the label small and grey, the value below it.
import { Text } from '@mantine/core';
import type { ReactNode } from 'react';

export function Field(props: { label: string; value: ReactNode; testId?: string }) {
  return (
    <div>
      <Text size="xs" c="gray.7">
        {props.label}
      </Text>
      <Text size="sm" data-testid={props.testId}>
        {props.value}
      </Text>
    </div>
  );
}
