// What an operator does to a webhook endpoint, on the list and on its page: add or edit one (the
// form in a dialog), turn it off and on, make a new signing secret, delete it. A signing secret
// is shown once, in its own dialog, when the endpoint is added and after each rotation.
import {
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  Modal,
  Stack,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { readFragment } from 'gql.tada';
import { useState } from 'react';
import { useQuery } from 'urql';
import { useFormMutation } from '../../api/form-mutation';
import { ConfirmButton } from '../../components/Confirm';
import { ErrorAlert } from '../../components/ErrorAlert';
import { fieldErrors } from '../../components/field-errors';
import { when } from '../../components/format';
import { notify } from '../../components/notify';
import {
  CreateEndpoint,
  DeleteEndpoint,
  EventTypesQuery,
  RotateSecret,
  SecretFields,
  UpdateEndpoint,
  type Endpoint,
  type Secret,
} from './documents';
import { EventTypeSelect } from './EventTypeSelect';
import { t } from '../../i18n';

/** The add / edit form in a dialog; `endpoint` given: edits it. */
export function EndpointFormModal(props: {
  opened: boolean;
  endpoint?: Endpoint;
  onClose: () => void;
  /** Added (with its secret, shown once) or changed. */
  onSaved: (secret: Secret | null) => void;
}) {
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={props.endpoint ? t('Edit the endpoint') : t('Add an endpoint')}
      centered
      size="lg"
      closeButtonProps={{ 'aria-label': t('Close') }}
    >
      {props.opened && (
        <EndpointForm endpoint={props.endpoint} onCancel={props.onClose} onSaved={props.onSaved} />
      )}
    </Modal>
  );
}

function EndpointForm(props: {
  endpoint?: Endpoint;
  onCancel: () => void;
  onSaved: (secret: Secret | null) => void;
}) {
  const { endpoint } = props;
  const [url, setUrl] = useState(endpoint?.url ?? '');
  const [types, setTypes] = useState<string[]>(endpoint ? [...endpoint.eventTypes] : []);
  const [known] = useQuery({ query: EventTypesQuery });
  const [description, setDescription] = useState(endpoint?.description ?? '');
  const [creating, create] = useFormMutation(CreateEndpoint);
  const [updating, update] = useFormMutation(UpdateEndpoint);
  const state = endpoint ? updating : creating;
  const errs = fieldErrors(state.error);
  // A refused type is named by its place in the list sent; the operator reads its name. (The
  // picker offers only known types; the API still has the last word.)
  const [sentTypes, setSentTypes] = useState<string[]>([]);
  const typeErrors =
    sentTypes
      .flatMap((t, i) => {
        const problem = errs.of(`eventTypes.${i}`);
        return problem ? [`${t}: ${problem}`] : [];
      })
      .join('; ') || errs.under('eventTypes');
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const input = {
          url: url.trim(),
          eventTypes: types,
          description: description.trim() || null,
        };
        setSentTypes(input.eventTypes);
        if (endpoint)
          void update({ id: endpoint.id, input }).then((res) => {
            if (res.data) {
              notify(t('Endpoint saved.'));
              props.onSaved(null);
            }
          });
        else
          void create({ input }).then((res) => {
            if (res.data) props.onSaved(readFragment(SecretFields, res.data.createWebhookEndpoint));
          });
      }}
    >
      <Stack>
        <TextInput
          label={t('Endpoint URL')}
          description={t(
            'The address of the system that receives the events. Live endpoints must use https.',
          )}
          placeholder="https://example.com/rewards-events"
          required
          value={url}
          onChange={(e) => setUrl(e.currentTarget.value)}
          error={errs.of('url')}
          data-autofocus
        />
        <EventTypeSelect
          label={t('Event types')}
          description={t(
            'The events sent to this endpoint. Leave empty for all event types, including ones added later.',
          )}
          placeholder={t('All event types, including ones added later')}
          types={known.data?.eventTypes}
          value={types}
          onChange={setTypes}
          error={typeErrors ?? (known.error && t('The list of event types could not be loaded.'))}
        />
        <TextInput
          label={t('Description')}
          description={t('For your team: what this endpoint is for.')}
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
          error={errs.of('description')}
        />
        <ErrorAlert error={state.error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onCancel}>
            {t('Cancel')}
          </Button>
          <Button type="submit" loading={state.fetching}>
            {endpoint ? t('Save changes') : t('Add endpoint')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** A signing secret, shown this once, with a copy button. */
export function SecretModal(props: { secret: Secret | null; onClose: () => void }) {
  const { secret } = props;
  return (
    <Modal
      opened={secret !== null}
      onClose={props.onClose}
      // A click beside the dialog must not throw away a secret that is never shown again.
      closeOnClickOutside={false}
      title={t('Signing secret')}
      centered
      size="lg"
      closeButtonProps={{ 'aria-label': t('Close') }}
    >
      <Stack>
        <Text size="sm">
          {t('The receiving system checks with it that each event really comes from us. Secret of')}{' '}
          <Text span fw={500} style={{ wordBreak: 'break-all' }}>
            {secret?.endpoint.url}
          </Text>
          :
        </Text>
        <Code block data-testid="webhook-secret" style={{ wordBreak: 'break-all' }}>
          {secret?.secret}
        </Code>
        <Alert color="yellow" variant="light">
          <Text span fw={700}>
            {t('You will not see it again.')}
          </Text>{' '}
          {t(
            'This is the only time the secret is shown: copy it now and store it in the receiving system.',
          )}
          {secret?.previousSecretExpiresAt &&
            ` ${t('The old secret keeps signing too until {until}, so the receiving system can switch over without missing events.', { until: when(secret.previousSecretExpiresAt) })}`}
        </Alert>
        <Group justify="flex-end">
          <CopyButton value={secret?.secret ?? ''}>
            {({ copied, copy }) => (
              <Button variant="outline" onClick={copy}>
                {copied ? t('Copied') : t('Copy secret')}
              </Button>
            )}
          </CopyButton>
          <Button onClick={props.onClose}>{t('I have stored it')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Edit, turn off or on, new secret, delete. Destructive ones ask first. */
export function EndpointActions(props: {
  endpoint: Endpoint;
  onChanged: () => void;
  onDeleted: () => void;
  size?: 'xs' | 'sm';
}) {
  const { endpoint: e } = props;
  const size = props.size === 'xs' ? 'compact-sm' : 'sm';
  const [editing, setEditing] = useState(false);
  const [secret, setSecret] = useState<Secret | null>(null);
  const [updating, update] = useFormMutation(UpdateEndpoint);
  const [rotating, rotate] = useFormMutation(RotateSecret);
  const [deleting, remove] = useFormMutation(DeleteEndpoint);
  const which = <VisuallyHidden> {e.url}</VisuallyHidden>;
  const setStatus = (status: 'active' | 'disabled') =>
    update({ id: e.id, input: { status } }).then((res) => {
      if (res.data) {
        notify(status === 'active' ? t('Endpoint turned on.') : t('Endpoint turned off.'));
        props.onChanged();
      }
    });
  return (
    <Stack gap="xs">
      <Group gap="xs" wrap="wrap">
        <Button size={size} variant="default" onClick={() => setEditing(true)}>
          {t('Edit')}
          {which}
        </Button>
        {e.status === 'active' ? (
          <ConfirmButton
            size={size}
            variant="default"
            title={t('Turn the endpoint off?')}
            question={t(
              'Nothing is sent to {url} while it is off, and events that happen meanwhile are not kept for it (after turning it on again, use Replay to send a missed period). Events already waiting for it are sent once it is on again.',
              { url: e.url },
            )}
            confirmLabel={t('Turn off')}
            // Red, not orange: white on orange reads 3.6:1, under WCAG AA's 4.5:1 (axe).
            color="red"
            onConfirm={() => setStatus('disabled')}
          >
            {t('Turn off')}
            {which}
          </ConfirmButton>
        ) : (
          <Button size={size} variant="default" onClick={() => void setStatus('active')}>
            {t('Turn on')}
            {which}
          </Button>
        )}
        <ConfirmButton
          size={size}
          variant="default"
          title={t('Make a new signing secret?')}
          question={t(
            'A new secret for {url} is made and shown once. The old secret keeps signing events too for 24 hours, so the receiving system can switch to the new one; after that only the new one signs.',
            { url: e.url },
          )}
          confirmLabel={t('Make a new secret')}
          onConfirm={() =>
            rotate({ id: e.id }).then((res) => {
              if (res.data) {
                setSecret(readFragment(SecretFields, res.data.rotateWebhookEndpointSecret));
                props.onChanged();
              }
            })
          }
        >
          {t('New secret')}
          {which}
        </ConfirmButton>
        <ConfirmButton
          size={size}
          variant="default"
          color="red"
          title={t('Delete the endpoint?')}
          question={t(
            'Nothing more is sent to {url}, and its delivery history is deleted with it. This cannot be undone.',
            { url: e.url },
          )}
          confirmLabel={t('Delete endpoint')}
          onConfirm={() =>
            remove({ id: e.id }).then((res) => {
              if (res.data) {
                notify(t('Endpoint deleted.'));
                props.onDeleted();
              }
            })
          }
        >
          {t('Delete')}
          {which}
        </ConfirmButton>
      </Group>
      <ErrorAlert error={updating.error ?? rotating.error ?? deleting.error} />
      <EndpointFormModal
        opened={editing}
        endpoint={e}
        onClose={() => setEditing(false)}
        onSaved={() => {
          setEditing(false);
          props.onChanged();
        }}
      />
      <SecretModal secret={secret} onClose={() => setSecret(null)} />
    </Stack>
  );
}
