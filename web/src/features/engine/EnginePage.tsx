// The engine of the chosen sub-brand: its event definitions (with their constraint warnings) and
// a simulation of an event, which moves no coins and claims no idempotency key.
import {
  Badge,
  Button,
  Card,
  Code,
  Group,
  JsonInput,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useState } from 'react';
import { useClient, useQuery } from 'urql';
import { Link } from 'wouter';
import { useSession } from '../../api/session';
import { ErrorAlert } from '../../components/ErrorAlert';
import { coins } from '../../components/format';
import { Page } from '../../components/Page';
import { graphql, type ResultOf } from '../../graphql';
import type { CombinedError } from 'urql';
import { DefinitionEditor } from './DefinitionEditor';
import { t } from '../../i18n';

const DefinitionsQuery = graphql(`
  query Definitions($subBrandId: ID!) {
    eventDefinitions(subBrandId: $subBrandId, first: 100) {
      edges {
        node {
          id
          code
          points
          active
          version
          constraints
          playerIdField
          allowPointsOverride
          verticals
          warnings
        }
      }
    }
  }
`);

const SimulateQuery = graphql(`
  query Simulate($subBrandId: ID!, $environment: Environment!, $code: String!, $data: JSON!) {
    simulateEngineEvent(
      subBrandId: $subBrandId
      environment: $environment
      eventCode: $code
      data: $data
    ) {
      status
      explanation
      errorCode
      customerId
      pointsRequested
      balanceBefore
      balanceAfter
    }
  }
`);

export default function EnginePage() {
  const { subBrandId, environment } = useSession();
  const client = useClient();
  const [editing, setEditing] = useState<string | null>(null);
  const [result, refetch] = useQuery({
    query: DefinitionsQuery,
    variables: { subBrandId: subBrandId ?? '' },
    pause: !subBrandId,
  });
  const definitions = result.data?.eventDefinitions.edges.map((e) => e.node) ?? [];
  const [code, setCode] = useState<string | null>(null);
  const [payload, setPayload] = useState('{}');
  const [outcome, setOutcome] = useState<
    ResultOf<typeof SimulateQuery>['simulateEngineEvent'] | null
  >(null);
  const [error, setError] = useState<CombinedError | Error | null>(null);
  const [busy, setBusy] = useState(false);

  const simulate = async () => {
    setError(null);
    setOutcome(null);
    let data: unknown;
    try {
      data = JSON.parse(payload);
    } catch {
      setError(new Error(t('The payload is not valid JSON.')));
      return;
    }
    setBusy(true);
    const res = await client
      .query(
        SimulateQuery,
        { subBrandId: subBrandId!, environment, code: code!, data },
        { requestPolicy: 'network-only' },
      )
      .toPromise();
    setBusy(false);
    if (res.error) setError(res.error);
    else setOutcome(res.data!.simulateEngineEvent);
  };

  return (
    <Page
      title={t('Engine')}
      actions={
        <Button component={Link} href="/engine/executions" variant="default">
          {t('Executions and audit')}
        </Button>
      }
    >
      <ErrorAlert error={result.error} />
      <Table striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('Code')}</Table.Th>
            <Table.Th ta="right">{t('Points')}</Table.Th>
            <Table.Th>{t('Player field')}</Table.Th>
            <Table.Th>{t('Constraints')}</Table.Th>
            <Table.Th>{t('Verticals')}</Table.Th>
            <Table.Th>{t('State')}</Table.Th>
            <Table.Th>
              <VisuallyHidden>{t('Edit')}</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {definitions.map((d) => (
            <Table.Tr key={d.id}>
              <Table.Td>
                <Code>{d.code}</Code> {t('v{version}', { version: d.version })}
              </Table.Td>
              <Table.Td ta="right">{d.points}</Table.Td>
              <Table.Td>{d.playerIdField}</Table.Td>
              <Table.Td>
                <Code>{JSON.stringify(d.constraints)}</Code>
                {d.warnings.map((w) => (
                  <Text key={w} size="xs" c="orange.9">
                    ⚠ {w}
                  </Text>
                ))}
              </Table.Td>
              <Table.Td>{d.verticals.length ? d.verticals.join(', ') : '—'}</Table.Td>
              <Table.Td>
                <Badge color={d.active ? 'teal' : 'gray'}>{d.active ? 'active' : 'inactive'}</Badge>
              </Table.Td>
              <Table.Td>
                <Button
                  size="xs"
                  variant="default"
                  onClick={() => setEditing(d.id)}
                  aria-label={t('Edit {code}', { code: d.code })}
                >
                  {t('Edit')}
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {editing && definitions.some((d) => d.id === editing) && (
        <DefinitionEditor
          definition={definitions.find((d) => d.id === editing)!}
          onClose={() => setEditing(null)}
          onSaved={() => refetch({ requestPolicy: 'network-only' })}
        />
      )}
      <Card withBorder>
        <Stack>
          <Title order={2} size="h4">
            {t('Simulate an event')}
          </Title>
          <Text size="sm" c="gray.7">
            {t('Runs the pipeline on a sample payload without moving coins.')}
          </Text>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Select
              label={t('Event')}
              data={definitions.map((d) => d.code)}
              value={code}
              onChange={setCode}
              required
            />
            <JsonInput
              label={t('Payload')}
              value={payload}
              onChange={setPayload}
              autosize
              minRows={4}
              validationError={t('Not valid JSON')}
              formatOnBlur
            />
          </SimpleGrid>
          <ErrorAlert error={error} />
          <Group justify="flex-end">
            <Button onClick={() => void simulate()} disabled={!code} loading={busy}>
              {t('Simulate')}
            </Button>
          </Group>
          {outcome && (
            <Card withBorder data-testid="simulation">
              <Group>
                <Badge size="lg" color={outcome.status === 'completed' ? 'teal' : 'orange'}>
                  {outcome.status}
                </Badge>
                {outcome.errorCode && <Code>{outcome.errorCode}</Code>}
              </Group>
              <Text mt="xs">{outcome.explanation}</Text>
              <Text size="sm" c="gray.7" mt="xs">
                {t(
                  '{pointsRequested} points requested · balance {balanceBefore} → {balanceAfter}',
                  {
                    pointsRequested: outcome.pointsRequested,
                    balanceBefore: coins(outcome.balanceBefore),
                    balanceAfter: coins(outcome.balanceAfter),
                  },
                )}
              </Text>
            </Card>
          )}
        </Stack>
      </Card>
    </Page>
  );
}
