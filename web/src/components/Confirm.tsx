// Every destructive or money-moving action asks first.
import { Button, Group, Modal, Text, type ButtonProps } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { t } from '../i18n';

export function ConfirmButton(
  props: ButtonProps & {
    children: ReactNode;
    title: string;
    question: ReactNode;
    confirmLabel: string;
    onConfirm: () => unknown;
    disabled?: boolean;
    type?: 'button' | 'submit';
  },
) {
  const { title, question, confirmLabel, onConfirm, children, ...button } = props;
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button {...button} type="button" onClick={() => setOpen(true)}>
        {children}
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={title} centered>
        <Text size="sm">{question}</Text>
        <Group justify="flex-end" mt="lg">
          {/* The safe answer takes the first focus: Enter or Space never confirms by surprise. */}
          <Button variant="default" onClick={() => setOpen(false)} data-autofocus>
            {t('Keep as is')}
          </Button>
          <Button
            color={button.color ?? 'blue'}
            onClick={() => {
              setOpen(false);
              void onConfirm();
            }}
          >
            {confirmLabel}
          </Button>
        </Group>
      </Modal>
    </>
  );
}
