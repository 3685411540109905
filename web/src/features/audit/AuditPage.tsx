// The staff audit trail of the chosen sub-brand: who changed what, when, field by field. Filters
// (person, date range, action, target) live in the URL; the Download CSV link carries them, so the
// file holds the rows on screen. Paged by keyset ("Load more" appends the next 50).
import {
  Anchor,
  Badge,
  Box,
  Button,
  Code,
  Group,
  List,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useQuery, type CombinedError } from 'urql';
import { Link, useLocation, useSearch } from 'wouter';
import { useSession } from '../../api/session';
import { ErrorAlert } from '../../components/ErrorAlert';
import { count as formatCount } from '../../components/format';
import { Page } from '../../components/Page';
import { graphql } from '../../graphql';
import { actionLabel } from './actions';
import { argsSummary, auditDiff, changeText, type Change } from './diff';
import {
  auditCsvUrl,
  auditFilter,
  auditUrl,
  dayStart,
  localDay,
  parseAuditQuery,
  RANGE_LABEL,
  RANGES,
  type AuditQuery,
  type Range,
} from './routes';
import { totalText } from '../../components/list-total';
import { currentLocale, t } from '../../i18n';

const AuditEntries = graphql(`
  query Audit(
    $staffId: ID
    $staffEmail: String
    $from: String
    $to: String
    $action: String
    $targetId: String
    $after: String
  ) {
    staffAudit(
      staffId: $staffId
      staffEmail: $staffEmail
      from: $from
      to: $to
      action: $action
      targetId: $targetId
      first: 50
      after: $after
    ) {
      edges {
        node {
          id
          action
          targetId
          args
          before
          after
          requestId
          createdAt
          staff {
            id
            email
          }
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

/** How many changes the filters match (the pages above come 50 at a time). */
const AuditTotal = graphql(`
  query AuditTotal(
    $staffId: ID
    $staffEmail: String
    $from: String
    $to: String
    $action: String
    $targetId: String
  ) {
    staffAudit(
      staffId: $staffId
      staffEmail: $staffEmail
      from: $from
      to: $to
      action: $action
      targetId: $targetId
      first: 1
    ) {
      total {
        value
        exact
      }
    }
  }
`);

/** What the filters offer: the actions and the people of the whole trail. */
const AuditChoices = graphql(`
  query AuditChoices {
    staffAudit(first: 1) {
      actions
      people {
        id
        email
      }
    }
  }
`);

// The operator's locale (their language's, i18n) and own time zone (the zone named, as the rest
// of the app speaks UTC). (dateStyle cannot be combined with timeZoneName, so the parts are named.)
// Made per locale: the screen renders afresh on a language switch.
let made: { locale: string; instant: Intl.DateTimeFormat } | undefined;
function formatter() {
  const locale = currentLocale();
  if (made?.locale !== locale)
    made = {
      locale,
      instant: new Intl.DateTimeFormat(locale, {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        timeZoneName: 'short',
      }),
    };
  return made;
}

export default function AuditPage() {
  const search = useSearch();
  const query = useMemo(() => parseAuditQuery(search), [search]);
  const [, navigate] = useLocation();
  const { subBrandId, environment } = useSession();
  // Presets count from the operator's midnight, so the variables stay put while the day lasts.
  const today = localDay();
  const filter = useMemo(() => auditFilter(query, dayStart(today)), [query, today]);
  const go = (change: Partial<AuditQuery>) => navigate(auditUrl({ ...query, ...change }));
  const filtered = Object.values(query).some(Boolean);
  return (
    <Page
      title={t('Audit trail')}
      actions={
        <Button
          component="a"
          variant="default"
          href={auditCsvUrl(query, { subBrandId, environment })}
          download
        >
          {t('Download CSV')}
        </Button>
      }
    >
      <Filters query={query} go={go} />
      {filtered && (
        <Anchor component={Link} href={auditUrl()} size="sm">
          {t('Clear filters')}
        </Anchor>
      )}
      {/* A new filter or tenant starts the list over. */}
      <Entries
        key={JSON.stringify([subBrandId, environment, filter])}
        filter={filter}
        filtered={filtered}
      />
    </Page>
  );
}

function Filters(props: { query: AuditQuery; go: (change: Partial<AuditQuery>) => void }) {
  const { query, go } = props;
  const [choices] = useQuery({ query: AuditChoices });
  const people = choices.data?.staffAudit.people ?? [];
  const actions = choices.data?.staffAudit.actions ?? [];
  const [target, setTarget] = useState(query.target ?? '');
  useEffect(() => setTarget(query.target ?? ''), [query.target]);
  // A person named by e-mail in the link shows as that person when the trail knows them.
  const email = query.staffEmail?.toLowerCase();
  const byEmail = email ? people.find((p) => p.email === email) : undefined;
  const personData = people.map((p) => ({ value: p.id, label: p.email }));
  if (query.staff && !people.some((p) => p.id === query.staff))
    personData.push({ value: query.staff, label: query.staff });
  // An exact action name typed into a link is kept, even when the trail has none of it.
  const actionData = [...new Set([...actions, ...(query.action ? [query.action] : [])])].map(
    (a) => ({ value: a, label: t(actionLabel(a)) }),
  );
  const range = query.range ?? 'any';
  return (
    <Stack gap="xs">
      <Group align="end" wrap="wrap">
        <Select
          label={t('Person')}
          placeholder={t('Anyone')}
          searchable
          clearable
          data={personData}
          value={query.staff ?? byEmail?.id ?? null}
          onChange={(v) => go({ staff: v ?? undefined, staffEmail: undefined })}
          nothingFoundMessage={t('No one by that e-mail here')}
          w={280}
        />
        <Select
          label={t('When')}
          data={[
            { value: 'any', label: t('Any time') },
            ...RANGES.map((r) => ({ value: r, label: t(RANGE_LABEL[r]) })),
          ]}
          value={range}
          allowDeselect={false}
          onChange={(v) =>
            go(
              v === 'custom'
                ? { range: 'custom', from: query.from ?? localDay(), to: query.to ?? localDay() }
                : { range: v === 'any' || !v ? undefined : (v as Range) },
            )
          }
          w={170}
        />
        {range === 'custom' && (
          <>
            <TextInput
              type="date"
              label={t('From')}
              value={query.from ?? ''}
              onChange={(e) => go({ from: e.currentTarget.value || undefined })}
              w={170}
            />
            <TextInput
              type="date"
              label={t('To')}
              value={query.to ?? ''}
              onChange={(e) => go({ to: e.currentTarget.value || undefined })}
              w={170}
            />
          </>
        )}
        <Select
          label={t('Action')}
          placeholder={t('Any action')}
          searchable
          clearable
          data={actionData}
          // Found by its words or by its exact name (adjustCustomerCoins).
          filter={({ options, search }) => {
            const s = search.trim().toLowerCase();
            return options.filter(
              (o) =>
                'value' in o &&
                (o.label.toLowerCase().includes(s) || o.value.toLowerCase().includes(s)),
            );
          }}
          value={query.action ?? null}
          onChange={(v) => go({ action: v ?? undefined })}
          w={260}
        />
        <form
          onSubmit={(e) => {
            e.preventDefault();
            go({ target: target.trim() || undefined });
          }}
        >
          <Group align="end" gap="xs">
            <TextInput
              label={t('Target id')}
              placeholder={t('A customer, order… id')}
              value={target}
              onChange={(e) => setTarget(e.currentTarget.value)}
              w={300}
            />
            <Button type="submit" variant="outline">
              {t('Filter')}
            </Button>
          </Group>
        </form>
      </Group>
      {query.staffEmail && !byEmail && (
        <Text size="sm">
          {t('Changes by')} <b>{query.staffEmail}</b>
        </Text>
      )}
    </Stack>
  );
}

type Filter = ReturnType<typeof auditFilter>;
type PageEnd = { hasNextPage: boolean; endCursor: string | null | undefined };

function Entries(props: { filter: Filter; filtered: boolean }) {
  // The cursors of the pages loaded so far; each page is its own (cached) request.
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const [ends, setEnds] = useState<Record<number, PageEnd>>({});
  const [errors, setErrors] = useState<Record<number, CombinedError | undefined>>({});
  const [counts, setCounts] = useState<Record<number, number>>({});
  const reportPage = useCallback((i: number, end: PageEnd, count: number) => {
    setEnds((e) => ({ ...e, [i]: end }));
    setCounts((c) => ({ ...c, [i]: count }));
  }, []);
  const reportError = useCallback(
    (i: number, e: CombinedError | undefined) => setErrors((x) => ({ ...x, [i]: e })),
    [],
  );
  const last = ends[cursors.length - 1];
  const shown = Object.values(counts).reduce((a, b) => a + b, 0);
  const [counted] = useQuery({ query: AuditTotal, variables: props.filter });
  const total = counted.data?.staffAudit.total;
  const error = Object.values(errors).find(Boolean);
  return (
    <>
      <ErrorAlert error={error} />
      <Table striped data-testid="audit-table" verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('When')}</Table.Th>
            <Table.Th>{t('Who')}</Table.Th>
            <Table.Th>{t('Action')}</Table.Th>
            <Table.Th>{t('Target')}</Table.Th>
            <Table.Th>{t('What changed')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        {cursors.map((after, i) => (
          <EntryPage
            key={after ?? 'first'}
            filter={props.filter}
            after={after}
            index={i}
            onPage={reportPage}
            onError={reportError}
          />
        ))}
      </Table>
      {ends[0] && shown === 0 && !error && (
        <Text c="gray.7">
          {props.filtered
            ? t('No changes match these filters.')
            : t('No staff changes recorded here yet.')}
        </Text>
      )}
      <Group justify="space-between">
        <Text size="sm" c="gray.7" aria-live="polite">
          {shown > 0 && total
            ? t('{n} shown of {total}, newest first', {
                n: formatCount(shown),
                total: totalText(total, 'change', 'changes'),
              })
            : ''}
        </Text>
        {last?.hasNextPage && last.endCursor && (
          <Button variant="default" onClick={() => setCursors((c) => [...c, last.endCursor!])}>
            {t('Load more')}
          </Button>
        )}
      </Group>
    </>
  );
}

function EntryPage(props: {
  filter: Filter;
  after: string | null;
  index: number;
  onPage: (index: number, end: PageEnd, count: number) => void;
  onError: (index: number, error: CombinedError | undefined) => void;
}) {
  const [result] = useQuery({
    query: AuditEntries,
    variables: { ...props.filter, after: props.after },
  });
  const page = result.data?.staffAudit;
  const { index, onPage, onError } = props;
  useEffect(() => {
    if (page) onPage(index, page.pageInfo, page.edges.length);
  }, [page, index, onPage]);
  useEffect(() => onError(index, result.error), [result.error, index, onError]);
  return (
    <Table.Tbody aria-busy={result.fetching}>
      {page?.edges.map(({ node }) => (
        <Entry key={node.id} entry={node} />
      ))}
    </Table.Tbody>
  );
}

type EntryNode = {
  id: string;
  action: string;
  targetId: string | null;
  args: unknown;
  before: unknown;
  after: unknown;
  requestId: string | null;
  createdAt: string;
  staff: { id: string; email: string };
};

function Entry({ entry: a }: { entry: EntryNode }) {
  const locale = currentLocale();
  const changes = useMemo(() => auditDiff(a.before, a.after, locale), [a.before, a.after, locale]);
  const details = useMemo(
    () => argsSummary(a.args, a.targetId, locale),
    [a.args, a.targetId, locale],
  );
  return (
    <Table.Tr data-testid="audit-entry" style={{ verticalAlign: 'top' }}>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        <time dateTime={a.createdAt} title={a.createdAt}>
          {formatter().instant.format(new Date(a.createdAt))}
        </time>
      </Table.Td>
      <Table.Td>{a.staff.email}</Table.Td>
      <Table.Td>
        <Text size="sm" fw={500}>
          {t(actionLabel(a.action))}
        </Text>
        <Text size="xs" c="gray.7" ff="monospace">
          {a.action}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="xs" ff="monospace" style={{ wordBreak: 'break-all' }}>
          {a.targetId ?? '—'}
        </Text>
      </Table.Td>
      <Table.Td miw={260}>
        {changes.length > 0 ? (
          <List size="sm" spacing={2} listStyleType="none" data-testid="audit-changes">
            {changes.map((c) => (
              <List.Item key={c.path}>
                <ChangeLine change={c} />
              </List.Item>
            ))}
          </List>
        ) : (
          <Text size="sm" c="gray.7">
            {a.before || a.after ? t('No field changed.') : t('Nothing recorded before or after.')}
          </Text>
        )}
        {details.length > 0 && (
          <Text size="xs" c="gray.7" mt={4} style={{ wordBreak: 'break-word' }}>
            {t('With {join}', { join: details.join(' · ') })}
          </Text>
        )}
        <Box component="details" mt={4}>
          <Box component="summary" style={{ cursor: 'pointer' }} fz="xs" c="blue.8">
            {t('Show raw')}
          </Box>
          <Stack gap={4} mt={4}>
            {(
              [
                [t('Arguments'), a.args],
                [t('Before'), a.before],
                [t('After'), a.after],
              ] as const
            ).map(([label, value]) => (
              <div key={label}>
                <Text size="xs" fw={500}>
                  {label}
                </Text>
                <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
                  {value === null || value === undefined ? '—' : JSON.stringify(value, null, 2)}
                </Code>
              </div>
            ))}
            {a.requestId && (
              <Text size="xs" c="gray.7">
                {t('Request id')} <Code>{a.requestId}</Code>
              </Text>
            )}
          </Stack>
        </Box>
      </Table.Td>
    </Table.Tr>
  );
}

function ChangeLine({ change: c }: { change: Change }) {
  // The line's text is changeText's (what tests and screen readers read); the kinds are marked.
  const text = changeText(c);
  if (c.kind === 'changed') return <Text size="sm">{text}</Text>;
  return (
    <Text size="sm">
      {text.replace(/ \((added|removed)\)$/, '')}{' '}
      <Badge size="xs" variant="light" color={c.kind === 'added' ? 'teal' : 'gray'}>
        {c.kind === 'added' ? t('added') : t('removed')}
      </Badge>
    </Text>
  );
}
