// The proposal review queue: catalogs sub-brands proposed, pending until a platform admin
// approves or rejects them (a rejection is final, so it asks first).
import { Button, Card, Group, Stack, Text, Textarea, Title } from '@mantine/core';
import { useState } from 'react';
import { useQuery } from 'urql';
import { ConfirmButton } from '../../components/Confirm';
import { ListTotal } from '../../components/ListTotal';
import { ErrorAlert } from '../../components/ErrorAlert';
import { when } from '../../components/format';
import { Page } from '../../components/Page';
import { graphql } from '../../graphql';
import { notify } from '../../components/notify';
import { useFormMutation } from '../../api/form-mutation';
import { t } from '../../i18n';

const ProposalsQuery = graphql(`
  query Proposals {
    catalogs(status: "pending", first: 100) {
      total {
        value
        exact
      }
      edges {
        node {
          id
          name
          description
          owner
          productCount
          status
          createdAt
        }
      }
    }
  }
`);
const ReviewMutation = graphql(`
  mutation Review($id: ID!, $decision: CatalogDecision!, $note: String) {
    reviewCatalog(id: $id, decision: $decision, note: $note) {
      id
      status
    }
  }
`);

export default function ProposalsPage() {
  const [result, refetch] = useQuery({ query: ProposalsQuery });
  const [review, send] = useFormMutation(ReviewMutation);
  const [notes, setNotes] = useState<Record<string, string>>({});
  const decide = (id: string, decision: 'approved' | 'rejected') =>
    send({ id, decision, note: notes[id]?.trim() || null }).then((res) => {
      if (!res.error) {
        notify(
          res.data!.reviewCatalog.status === 'approved'
            ? t('Proposal approved.')
            : res.data!.reviewCatalog.status === 'rejected'
              ? t('Proposal rejected.')
              : t('Proposal {status}.', { status: res.data!.reviewCatalog.status }),
        );
        refetch({ requestPolicy: 'network-only' });
      }
    });
  const rows = result.data?.catalogs.edges.map((e) => e.node) ?? [];
  return (
    <Page title={t('Catalog proposals')}>
      <ErrorAlert error={result.error ?? review.error} />
      {rows.length > 0 && (
        <ListTotal
          total={result.data?.catalogs.total}
          one="proposal"
          many="proposals"
          testId="proposals-total"
          shown={rows.length}
        />
      )}
      {result.data && rows.length === 0 && (
        <Text c="gray.7">{t('No proposals wait for review.')}</Text>
      )}
      {rows.map((c) => (
        <Card withBorder key={c.id} data-testid="proposal">
          <Stack gap="xs">
            <Title order={2} size="h4">
              {c.name}
            </Title>
            <Text size="sm">{c.description ?? t('No description.')}</Text>
            <Text size="xs" c="gray.7">
              {t('{productCount} products · proposed {createdAt}', {
                productCount: c.productCount,
                createdAt: when(c.createdAt),
              })}
            </Text>
            <Textarea
              label={t('Note to the sub-brand')}
              value={notes[c.id] ?? ''}
              onChange={(e) => setNotes({ ...notes, [c.id]: e.currentTarget.value })}
              autosize
              minRows={1}
            />
            <Group justify="flex-end">
              <ConfirmButton
                color="red"
                title={t('Reject the proposal')}
                question={t('Reject “{name}”? A rejection is final.', { name: c.name })}
                confirmLabel={t('Reject')}
                onConfirm={() => decide(c.id, 'rejected')}
              >
                {t('Reject…')}
              </ConfirmButton>
              <Button onClick={() => void decide(c.id, 'approved')} loading={review.fetching}>
                {t('Approve')}
              </Button>
            </Group>
          </Stack>
        </Card>
      ))}
    </Page>
  );
}
