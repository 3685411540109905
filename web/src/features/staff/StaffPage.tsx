// Staff and roles: the accounts the signed-in admin manages (platform admins: all; brand admins:
// their brand's), invitations by e-mail, role changes, disable and enable, password and
// two-factor resets. The server decides who may do what (domain/staff/staff-admin.ts); this
// screen offers only what it will accept (the roles and places within the admin's reach).
import {
  Badge,
  Button,
  Group,
  Menu,
  Modal,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useQuery } from 'urql';
import type { StaffRole } from '../../api/http';
import { useFormMutation } from '../../api/form-mutation';
import { subBrandLabel, useStaff } from '../../api/session';
import { ROLE_LABEL } from '../../app/screens';
import { ListTotal } from '../../components/ListTotal';
import { ErrorAlert } from '../../components/ErrorAlert';
import { when } from '../../components/format';
import { notify } from '../../components/notify';
import { Page } from '../../components/Page';
import type { ResultOf } from '../../graphql';
import { msg, t } from '../../i18n';
import {
  BrandChoicesQuery,
  ChangeRoleMutation,
  DisableMutation,
  EnableMutation,
  InviteMutation,
  ResetPasswordMutation,
  ResetTwoFactorMutation,
  StaffQuery,
} from './documents';

type Account = ResultOf<typeof StaffQuery>['staffMembers'][number];
type Assignment = { role: StaffRole; brandId: string | null; subBrandId: string | null };

// Dark enough for white text (axe's contrast rule).
const STATUS_COLOR = { active: 'teal.8', invited: 'blue.8', reset: 'orange.9', disabled: 'gray.7' };
const STATUS_LABEL = {
  active: msg('Active'),
  invited: msg('Invited'),
  reset: msg('Password reset sent'),
  disabled: msg('Disabled'),
};

export default function StaffPage() {
  const staff = useStaff();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const [result, refetch] = useQuery({ query: StaffQuery, variables: { search: debounced } });
  const [inviting, setInviting] = useState(false);
  const [editing, setEditing] = useState<Account | null>(null);
  const accounts = result.data?.staffMembers ?? [];
  const reload = () => refetch({ requestPolicy: 'network-only' });
  return (
    <Page
      title={t('Staff')}
      actions={<Button onClick={() => setInviting(true)}>{t('Invite')}</Button>}
    >
      <Text size="sm" c="gray.7">
        {staff.isPlatformAdmin
          ? t('Every staff account. Invitations and resets go out by e-mail as one-time links.')
          : t(
              "Your brand's staff. You can give the roles brand admin, establishment operator and support within your brand.",
            )}
      </Text>
      <TextInput
        label={t('Search by e-mail')}
        maw={360}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
      />
      <ErrorAlert error={result.error} />
      <ListTotal
        total={result.data?.staffMembersTotal}
        one="staff account"
        many="staff accounts"
        testId="staff-total"
        shown={accounts.length}
      />
      <div style={{ overflowX: 'auto' }}>
        <Table striped miw={820}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('E-mail')}</Table.Th>
              <Table.Th>{t('Role')}</Table.Th>
              <Table.Th>{t('Where')}</Table.Th>
              <Table.Th>{t('Status')}</Table.Th>
              <Table.Th>{t('Two-factor')}</Table.Th>
              <Table.Th>{t('Last sign-in')}</Table.Th>
              <Table.Th>
                <VisuallyHidden>{t('Actions')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {accounts.map((a) => (
              <Table.Tr key={a.id} data-testid="staff-row">
                <Table.Td>{a.email}</Table.Td>
                <Table.Td>{t(ROLE_LABEL[a.role])}</Table.Td>
                <Table.Td>{where(a)}</Table.Td>
                <Table.Td>
                  <Badge color={STATUS_COLOR[a.status]}>{t(STATUS_LABEL[a.status])}</Badge>
                </Table.Td>
                <Table.Td>{a.twoFactorEnabled ? t('On') : t('Off')}</Table.Td>
                <Table.Td>{a.lastSignInAt ? when(a.lastSignInAt) : t('Never')}</Table.Td>
                <Table.Td>
                  {a.id !== staff.staff.id && (
                    <AccountActions account={a} onChanged={reload} onEdit={() => setEditing(a)} />
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
            {result.data && accounts.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={7}>{t('No staff account matches.')}</Table.Td>
              </Table.Tr>
            )}
          </Table.Tbody>
        </Table>
      </div>
      {inviting && (
        <InviteDialog
          onClose={() => setInviting(false)}
          onDone={() => {
            setInviting(false);
            reload();
          }}
        />
      )}
      {editing && (
        <RoleDialog
          account={editing}
          onClose={() => setEditing(null)}
          onDone={() => {
            setEditing(null);
            reload();
          }}
        />
      )}
    </Page>
  );
}

function where(a: Account): string {
  if (a.subBrand) return a.subBrand.name;
  if (a.brand) return t('{brand} (whole brand)', { brand: a.brand.name });
  return a.role === 'platform_admin' ? t('Platform') : t('Every sub-brand');
}

/** One account's actions; each asks first, in words that say what happens. */
function AccountActions(props: { account: Account; onChanged: () => void; onEdit: () => void }) {
  const a = props.account;
  const [disabling, disable] = useFormMutation(DisableMutation);
  const [enabling, enable] = useFormMutation(EnableMutation);
  const [resetting, resetPassword] = useFormMutation(ResetPasswordMutation);
  const [clearing, resetTwoFactor] = useFormMutation(ResetTwoFactorMutation);
  const [asking, setAsking] = useState<null | {
    title: string;
    question: string;
    confirm: string;
    run: () => Promise<{ error?: Error | undefined }>;
    done: string;
  }>(null);
  const error = disabling.error ?? enabling.error ?? resetting.error ?? clearing.error;
  const vars = { id: a.id };
  return (
    <>
      <Menu position="bottom-end">
        <Menu.Target>
          <Button
            size="xs"
            variant="default"
            aria-label={t('Actions for {email}', { email: a.email })}
          >
            {t('Actions')}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item onClick={props.onEdit}>{t('Change role…')}</Menu.Item>
          {a.status !== 'disabled' && (
            <Menu.Item
              onClick={() =>
                setAsking({
                  title:
                    a.status === 'invited' ? t('Send the invitation again') : t('Reset password'),
                  question:
                    a.status === 'invited'
                      ? t('{email} gets a new invitation link; the earlier one stops working.', {
                          email: a.email,
                        })
                      : t(
                          "{email}'s password stops working now and their sessions end. They get an e-mail with a link (valid 1 day) to choose a new one.",
                          { email: a.email },
                        ),
                  confirm: a.status === 'invited' ? t('Send again') : t('Reset password'),
                  run: () => resetPassword(vars),
                  done: t('E-mail on its way to {email}.', { email: a.email }),
                })
              }
            >
              {a.status === 'invited' ? t('Send the invitation again…') : t('Reset password…')}
            </Menu.Item>
          )}
          {a.twoFactorEnabled && (
            <Menu.Item
              onClick={() =>
                setAsking({
                  title: t('Reset two-factor sign-in'),
                  question: t(
                    "For a lost phone: {email}'s authenticator and recovery codes stop working and their sessions end. They set it up again at their next sign-in where their brand requires it.",
                    { email: a.email },
                  ),
                  confirm: t('Reset two-factor'),
                  run: () => resetTwoFactor(vars),
                  done: t('Two-factor sign-in reset for {email}.', { email: a.email }),
                })
              }
            >
              {t('Reset two-factor…')}
            </Menu.Item>
          )}
          <Menu.Divider />
          {a.status === 'disabled' ? (
            <Menu.Item
              onClick={() =>
                setAsking({
                  title: t('Enable account'),
                  question: t('{email} can sign in again.', { email: a.email }),
                  confirm: t('Enable'),
                  run: () => enable(vars),
                  done: t('{email} is enabled.', { email: a.email }),
                })
              }
            >
              {t('Enable…')}
            </Menu.Item>
          ) : (
            <Menu.Item
              color="red.9"
              onClick={() =>
                setAsking({
                  title: t('Disable account'),
                  question: t(
                    '{email} is signed out everywhere now and cannot sign in. Their history stays; you can enable the account later.',
                    { email: a.email },
                  ),
                  confirm: t('Disable'),
                  run: () => disable(vars),
                  done: t('{email} is disabled.', { email: a.email }),
                })
              }
            >
              {t('Disable…')}
            </Menu.Item>
          )}
        </Menu.Dropdown>
      </Menu>
      <ErrorAlert error={error} />
      <Modal
        opened={asking !== null}
        onClose={() => setAsking(null)}
        title={asking?.title}
        centered
      >
        <Text size="sm">{asking?.question}</Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => setAsking(null)} data-autofocus>
            {t('Keep as is')}
          </Button>
          <Button
            color={asking?.confirm === t('Disable') ? 'red' : 'blue'}
            onClick={() => {
              const step = asking!;
              setAsking(null);
              void step.run().then((r) => {
                if (r.error) return;
                notify(step.done);
                props.onChanged();
              });
            }}
          >
            {asking?.confirm}
          </Button>
        </Group>
      </Modal>
    </>
  );
}

/** The roles the signed-in admin may give, and where. */
function useChoices() {
  const staff = useStaff();
  const [brands] = useQuery({ query: BrandChoicesQuery, pause: !staff.isPlatformAdmin });
  const roles: StaffRole[] = staff.isPlatformAdmin
    ? ['platform_admin', 'brand_admin', 'establishment_operator', 'support']
    : ['brand_admin', 'establishment_operator', 'support'];
  const brandOptions = staff.isPlatformAdmin
    ? (brands.data?.brands.edges ?? []).map((e) => ({ value: e.node.id, label: e.node.name }))
    : [{ value: staff.staff.brandId ?? '', label: t('Your brand') }];
  const subBrandOptions = staff.subBrands
    .filter((s) => !s.isPlatform)
    .map((s) => ({ value: s.id, label: subBrandLabel(s) }));
  return { roles, brandOptions, subBrandOptions, isPlatformAdmin: staff.isPlatformAdmin };
}

/** Role, then where it applies: the fields the role needs, and only those. */
function AssignmentFields(props: { value: Assignment; onChange: (a: Assignment) => void }) {
  const c = useChoices();
  const v = props.value;
  const supportWhere = v.brandId ? 'brand' : v.subBrandId ? 'subBrand' : 'all';
  return (
    <>
      <Select
        label={t('Role')}
        required
        allowDeselect={false}
        data={c.roles.map((r) => ({ value: r, label: t(ROLE_LABEL[r]) }))}
        value={v.role}
        onChange={(role) =>
          role &&
          props.onChange({
            role: role as StaffRole,
            brandId: role === 'brand_admin' ? (c.brandOptions[0]?.value ?? null) : null,
            subBrandId:
              role === 'establishment_operator' ? (c.subBrandOptions[0]?.value ?? null) : null,
          })
        }
      />
      {v.role === 'support' && (
        <Select
          label={t('Support reads')}
          allowDeselect={false}
          data={[
            ...(c.isPlatformAdmin ? [{ value: 'all', label: t('Every sub-brand') }] : []),
            { value: 'brand', label: t('A whole brand') },
            { value: 'subBrand', label: t('One sub-brand') },
          ]}
          value={supportWhere}
          onChange={(w) =>
            props.onChange({
              role: 'support',
              brandId: w === 'brand' ? (c.brandOptions[0]?.value ?? null) : null,
              subBrandId: w === 'subBrand' ? (c.subBrandOptions[0]?.value ?? null) : null,
            })
          }
        />
      )}
      {(v.role === 'brand_admin' || (v.role === 'support' && supportWhere === 'brand')) && (
        <Select
          label={t('Brand')}
          required
          searchable
          allowDeselect={false}
          data={c.brandOptions}
          value={v.brandId}
          onChange={(brandId) => props.onChange({ ...v, brandId })}
        />
      )}
      {(v.role === 'establishment_operator' ||
        (v.role === 'support' && supportWhere === 'subBrand')) && (
        <Select
          label={t('Sub-brand')}
          required
          searchable
          allowDeselect={false}
          data={c.subBrandOptions}
          value={v.subBrandId}
          onChange={(subBrandId) => props.onChange({ ...v, subBrandId })}
        />
      )}
    </>
  );
}

/** A staff form in a dialog: its fields, a line on what happens, Cancel and the action. */
function FormDialog(props: {
  title: string;
  error: Error | undefined;
  busy: boolean;
  note: string;
  action: string;
  onSubmit: () => Promise<void>;
  onClose: () => void;
  children: ReactNode;
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void props.onSubmit();
  };
  return (
    <Modal opened onClose={props.onClose} title={props.title} centered>
      <form onSubmit={submit}>
        <Stack>
          <ErrorAlert error={props.error} />
          {props.children}
          <Text size="xs" c="gray.7">
            {props.note}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              {t('Cancel')}
            </Button>
            <Button type="submit" loading={props.busy}>
              {props.action}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function InviteDialog(props: { onClose: () => void; onDone: () => void }) {
  const c = useChoices();
  const [email, setEmail] = useState('');
  const [assignment, setAssignment] = useState<Assignment>({
    role: 'establishment_operator',
    brandId: null,
    subBrandId: c.subBrandOptions[0]?.value ?? null,
  });
  const [state, invite] = useFormMutation(InviteMutation);
  return (
    <FormDialog
      title={t('Invite a staff member')}
      error={state.error}
      busy={state.fetching}
      note={t('They get an e-mail with a link, valid 7 days, to choose their password.')}
      action={t('Send invitation')}
      onClose={props.onClose}
      onSubmit={async () => {
        const r = await invite({ input: { email, ...assignment } });
        if (r.error) return;
        notify(t('Invitation on its way to {email}.', { email }));
        props.onDone();
      }}
    >
      <TextInput
        label={t('E-mail')}
        type="email"
        required
        data-autofocus
        value={email}
        onChange={(e) => setEmail(e.currentTarget.value)}
      />
      <AssignmentFields value={assignment} onChange={setAssignment} />
    </FormDialog>
  );
}

function RoleDialog(props: { account: Account; onClose: () => void; onDone: () => void }) {
  const a = props.account;
  const [assignment, setAssignment] = useState<Assignment>({
    role: a.role,
    brandId: a.brand?.id ?? null,
    subBrandId: a.subBrand?.id ?? null,
  });
  const [state, change] = useFormMutation(ChangeRoleMutation);
  return (
    <FormDialog
      title={t('Role of {email}', { email: a.email })}
      error={state.error}
      busy={state.fetching}
      note={t('It applies from their next click; they stay signed in.')}
      action={t('Change role')}
      onClose={props.onClose}
      onSubmit={async () => {
        const r = await change({ id: a.id, input: assignment });
        if (r.error) return;
        notify(
          t('{email} is now {role}.', { email: a.email, role: t(ROLE_LABEL[assignment.role]) }),
        );
        props.onDone();
      }}
    >
      <AssignmentFields value={assignment} onChange={setAssignment} />
    </FormDialog>
  );
}
