import { notifications } from '@mantine/notifications';
import { t } from '../i18n';

/** A short confirmation; its close button is named, for screen readers (axe: button-name). */
export const notify = (message: string, color = 'teal') =>
  notifications.show({ message, color, closeButtonProps: { 'aria-label': t('Dismiss') } });
