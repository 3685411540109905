// The proposal review queue: catalogs sub-brands proposed, pending until a platform admin
// approves or rejects them (a rejection is final, so it asks first).
import { Button, Card, Group, Stack, Text, Textarea, Title } from '@mantine/core';
import { useState } from 'react';
import { useQuery } from 'urql';
import { ConfirmButton } from '../../components/Confirm';
import { ErrorAlert } from '../../components/ErrorAlert';
import { when } from '../../components/format';
import { Page } from '../../components/Page';
import { graphql } from '../../graphql';
import { notify } from '../../components/notify';
import { useFormMutation } from '../../api/form-mutation';

const ProposalsQuery = graphql(`
  query Proposals {
    catalogs(status: "pending", first: 100) {
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
        notify(`Proposal ${res.data!.reviewCatalog.status}.`);
        refetch({ requestPolicy: 'network-only' });
      }
    });
  const rows = result.data?.catalogs.edges.map((e) => e.node) ?? [];
  return (
    <Page title="Catalog proposals">
      <ErrorAlert error={result.error ?? review.error} />
      {result.data && rows.length === 0 && <Text c="gray.7">No proposals wait for review.</Text>}
      {rows.map((c) => (
        <Card withBorder key={c.id} data-testid="proposal">
          <Stack gap="xs">
            <Title order={2} size="h4">
              {c.name}
            </Title>
            <Text size="sm">{c.description ?? 'No description.'}</Text>
            <Text size="xs" c="gray.7">
              {c.productCount} products · proposed {when(c.createdAt)}
            </Text>
            <Textarea
              label="Note to the sub-brand"
              value={notes[c.id] ?? ''}
              onChange={(e) => setNotes({ ...notes, [c.id]: e.currentTarget.value })}
              autosize
              minRows={1}
            />
            <Group justify="flex-end">
              <ConfirmButton
                color="red"
                title="Reject the proposal"
                question={`Reject “${c.name}”? A rejection is final.`}
                confirmLabel="Reject"
                onConfirm={() => decide(c.id, 'rejected')}
              >
                Reject…
              </ConfirmButton>
              <Button onClick={() => void decide(c.id, 'approved')} loading={review.fetching}>
                Approve
              </Button>
            </Group>
          </Stack>
        </Card>
      ))}
    </Page>
  );
}
