// The one search box (⌘K / Ctrl+K, or the header's Search button): customers, orders, products
// and campaigns of the chosen sub-brand and environment (GraphQL `search`). Arrow keys move
// through the hits, Enter opens one, Escape closes. Loaded on demand (React.lazy in the shell), so
// it costs the first load nothing.
import { Badge, Group, Loader, Modal, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useId, useState, type KeyboardEvent } from 'react';
import { useQuery } from 'urql';
import { useLocation } from 'wouter';
import { ErrorAlert } from '../components/ErrorAlert';
import { graphql } from '../graphql';
import { msg, t } from '../i18n';

const SearchQuery = graphql(`
  query Search($query: String!) {
    search(query: $query) {
      query
      searched
      hits {
        kind
        id
        title
        subtitle
        url
      }
    }
  }
`);

const GROUPS = [
  { kind: 'customer', label: msg('Players') },
  { kind: 'order', label: msg('Orders') },
  { kind: 'product', label: msg('Products') },
  { kind: 'campaign', label: msg('Campaigns') },
] as const;

const MIN = 2;

export default function SearchPalette(props: { onClose: () => void }) {
  const [text, setText] = useState('');
  const [debounced] = useDebouncedValue(text.trim(), 200);
  const [active, setActive] = useState(0);
  const [, navigate] = useLocation();
  const id = useId();
  const [result] = useQuery({
    query: SearchQuery,
    variables: { query: debounced },
    pause: debounced.length < MIN,
    requestPolicy: 'cache-and-network',
  });
  const data = debounced.length >= MIN ? result.data?.search : undefined;
  const hits = data?.hits ?? [];
  const openable = hits.filter((h) => h.url);
  const current = openable[Math.min(active, openable.length - 1)];
  const optionId = (hitId: string, kind: string) => `${id}-${kind}-${hitId}`;

  const open = (url: string | null | undefined) => {
    if (!url) return;
    props.onClose();
    navigate(url);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (openable.length === 0) return;
      const at = Math.min(active, openable.length - 1);
      const next = e.key === 'ArrowDown' ? at + 1 : at - 1;
      setActive((next + openable.length) % openable.length);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      open(current?.url);
    }
  };

  return (
    <Modal
      opened
      onClose={props.onClose}
      title={t('Search')}
      size="lg"
      yOffset="10vh"
      closeButtonProps={{ 'aria-label': t('Close search') }}
    >
      <Stack gap="sm">
        <TextInput
          data-autofocus
          aria-label={t('Search players, orders, products and campaigns')}
          placeholder={t(
            'Name, e-mail, phone, external id, order id, tracking code, product, campaign…',
          )}
          value={text}
          onChange={(e) => {
            setText(e.currentTarget.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
          role="combobox"
          aria-expanded={hits.length > 0}
          aria-controls={`${id}-list`}
          aria-autocomplete="list"
          aria-activedescendant={current ? optionId(current.id, current.kind) : undefined}
          rightSection={result.fetching ? <Loader size="xs" /> : null}
        />
        <ErrorAlert error={debounced.length >= MIN ? result.error : undefined} />
        {text.trim().length > 0 && text.trim().length < MIN && (
          <Text size="sm" c="gray.7">
            {t('Type at least {MIN} characters.', { MIN })}
          </Text>
        )}
        {data && hits.length === 0 && !result.fetching && (
          <Text size="sm" c="gray.7" data-testid="search-empty">
            {t('Nothing found for “{query}”.', { query: data.query })}
          </Text>
        )}
        <div
          id={`${id}-list`}
          role="listbox"
          aria-label={t('Search results')}
          data-testid="search-results"
        >
          {GROUPS.map((group) => {
            const inGroup = hits.filter((h) => h.kind === group.kind);
            if (inGroup.length === 0) return null;
            return (
              <div key={group.kind} role="group" aria-labelledby={`${id}-${group.kind}`}>
                <Text
                  id={`${id}-${group.kind}`}
                  size="xs"
                  fw={700}
                  c="gray.7"
                  tt="uppercase"
                  mt="xs"
                >
                  {t(group.label)}
                </Text>
                {inGroup.map((hit) => {
                  const selected = current?.id === hit.id && current.kind === hit.kind;
                  return (
                    <UnstyledButton
                      key={hit.id}
                      id={optionId(hit.id, hit.kind)}
                      role="option"
                      aria-selected={selected}
                      aria-disabled={!hit.url || undefined}
                      tabIndex={-1}
                      data-kind={hit.kind}
                      onClick={() => open(hit.url)}
                      onMouseEnter={() => {
                        const at = openable.indexOf(hit);
                        if (at >= 0) setActive(at);
                      }}
                      w="100%"
                      p="xs"
                      style={{
                        borderRadius: 4,
                        background: selected ? 'var(--mantine-color-indigo-0)' : undefined,
                        outline: selected ? '2px solid var(--mantine-color-indigo-6)' : undefined,
                      }}
                    >
                      <Group justify="space-between" wrap="nowrap" gap="xs">
                        <div style={{ minWidth: 0 }}>
                          <Text size="sm" fw={500} truncate>
                            {hit.title}
                          </Text>
                          <Text size="xs" c="gray.7" truncate>
                            {hit.subtitle}
                          </Text>
                        </div>
                        {!hit.url && (
                          <Badge variant="light" color="gray">
                            {t('no screen for your role')}
                          </Badge>
                        )}
                      </Group>
                    </UnstyledButton>
                  );
                })}
              </div>
            );
          })}
        </div>
        <Text size="xs" c="gray.7">
          {t(
            "↑ ↓ to move, Enter to open, Esc to close. Orders are found by their exact id, reference, tracking code, or the customer's external id or e-mail.",
          )}
        </Text>
      </Stack>
    </Modal>
  );
}
