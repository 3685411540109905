// The line above a list that says how many it holds ("1,234 customers"), and, for a list that
// shows only its newest N, how many of them are on the screen ("100 shown of 2,345 e-mails").
import { Text } from '@mantine/core';
import { t } from '../i18n';
import { count } from './format';
import { totalText, type ListTotal as Total } from './list-total';

export function ListTotal(props: {
  total: Total | null | undefined;
  /** English nouns listed in LIST_NOUNS (translated there). */
  one: string;
  many: string;
  testId: string;
  /** Rows on the screen, for a list cut at a cap rather than paged. */
  shown?: number;
}) {
  const { total, one, many, shown } = props;
  if (!total) return null;
  const text = totalText(total, one, many);
  return (
    <Text size="sm" c="gray.7" data-testid={props.testId}>
      {shown !== undefined && shown < total.value
        ? t('{n} shown of {total}', { n: count(shown), total: text })
        : text}
    </Text>
  );
}
