// The backoffice's list table: typed columns, a row key, an empty text, a test id. Screens state
// what a column shows; the table owns the markup (header cells, alignment, striping).
import { Button, Group, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { t } from '../i18n';

export type Column<T> = {
  header: ReactNode;
  cell: (row: T) => ReactNode;
  align?: 'left' | 'right';
};

export function DataTable<T>(props: {
  columns: Column<T>[];
  rows: readonly T[] | undefined;
  rowKey: (row: T) => string;
  /** Shown instead of an empty table once the rows have loaded. */
  empty: string;
  testId?: string;
  rowProps?: (row: T) => Record<string, string>;
  caption?: string;
  /** Narrower than this (a phone), the table scrolls sideways in its frame; the page does not. */
  minWidth?: number;
}) {
  const { columns, rows } = props;
  const table = (
    <Table striped highlightOnHover data-testid={props.testId}>
      {props.caption && <Table.Caption>{props.caption}</Table.Caption>}
      <Table.Thead>
        <Table.Tr>
          {columns.map((c, i) => (
            <Table.Th key={i} ta={c.align}>
              {c.header}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows?.map((row) => (
          <Table.Tr key={props.rowKey(row)} {...props.rowProps?.(row)}>
            {columns.map((c, i) => (
              <Table.Td key={i} ta={c.align}>
                {c.cell(row)}
              </Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
  return (
    <>
      {props.minWidth ? (
        <Table.ScrollContainer minWidth={props.minWidth} type="native">
          {table}
        </Table.ScrollContainer>
      ) : (
        table
      )}
      {rows && rows.length === 0 && <Text c="gray.7">{props.empty}</Text>}
    </>
  );
}

/** Previous / Next over a server-paginated connection (cursors kept in the URL by the screen). */
export function Pager(props: {
  pageInfo: { hasPreviousPage?: boolean; hasNextPage: boolean } | undefined;
  onPrevious?: () => void;
  onNext: () => void;
}) {
  return (
    <Group justify="flex-end">
      {props.onPrevious && (
        <Button
          variant="default"
          disabled={!props.pageInfo?.hasPreviousPage}
          onClick={props.onPrevious}
        >
          {t('Previous')}
        </Button>
      )}
      <Button variant="default" disabled={!props.pageInfo?.hasNextPage} onClick={props.onNext}>
        {t('Next')}
      </Button>
    </Group>
  );
}
