import { notifications } from '@mantine/notifications';

/** A short confirmation; its close button is named, for screen readers (axe: button-name). */
export const notify = (message: string, color = 'teal') =>
  notifications.show({ message, color, closeButtonProps: { 'aria-label': 'Dismiss' } });
