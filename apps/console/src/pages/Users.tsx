import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api, ok, ROLE_EXPLAINED, ROLE_LABEL, type Role, type Schemas } from '../api.ts';
import { useCan, useMe } from '../app/session.tsx';
import { useUsers } from '../queries.ts';
import { DataTable } from '../ui/data-table.tsx';
import { Form, type Option, Options, SelectField, TextField } from '../ui/form.tsx';
import { ago, ConfirmDialog, PageHeader, Restricted } from '../ui/ui.tsx';

type User = Schemas['AdminUser'];
const ROLES: Role[] = ['owner', 'admin', 'analyst', 'readonly'];

export function Users() {
  const me = useMe();
  const can = useCan();
  const queryClient = useQueryClient();
  const users = useUsers(can('read:users'));
  const [pending, setPending] = useState<{ user: User; role: Role | null } | null>(null);
  const change = useMutation({
    mutationFn: (p: { user: User; role: Role | null }) =>
      ok(api.PUT('/api/v1/admin/users/{user}', { params: { path: { user: p.user.id } }, body: { role: p.role } })),
    onSuccess: () => {
      setPending(null);
      void queryClient.invalidateQueries({ queryKey: ['users'] });
    },
  });
  // Admins set every role but owner, and cannot change an owner; owners set every role.
  const mayGrant = (r: Role | null) => (r === 'owner' ? can('grant:owner') : true);
  const mayChange = (u: User) => u.role !== 'owner' || can('grant:owner');
  const roleOptions = ROLES.map((r) => ({ value: r, label: ROLE_LABEL[r], disabled: !mayGrant(r) }));

  if (!can('read:users')) {
    return <Restricted title="Users and roles">Only admins and owners see the users of the workspace.</Restricted>;
  }
  return (
    <>
      <PageHeader
        title="Users and roles"
        description="People who have signed in. A role decides what they may change; someone without a role sees nothing."
      />
      <details className="card">
        <summary>What each role may do</summary>
        <dl className="roles">
          {ROLES.map((r) => (
            <div key={r}>
              <dt>{ROLE_LABEL[r]}</dt>
              <dd>{ROLE_EXPLAINED[r]}</dd>
            </div>
          ))}
        </dl>
        <p className="small muted">
          Admins give and take every role but owner; only owners make or unmake owners. The last owner cannot lose the
          role.
        </p>
      </details>
      <AddUser roleOptions={roleOptions} />
      <DataTable
        caption="Users and their roles"
        query={users}
        empty="Nobody has signed in yet."
        rowName={(u) => u.display_name}
        columns={[
          {
            label: 'User',
            rowHeader: true,
            cell: (u) => (
              <>
                {u.display_name}
                {u.id === me.id ? <span className="muted small"> (you)</span> : null}
              </>
            ),
          },
          { label: 'Email', width: 12, cell: (u) => u.email ?? <span className="muted">—</span> },
          {
            label: 'Role',
            width: 10,
            cell: (u) => (
              <select
                aria-label={`Role of ${u.display_name}`}
                value={u.role ?? ''}
                disabled={!mayChange(u) || change.isPending}
                onChange={(e) => setPending({ user: u, role: (e.target.value || null) as Role | null })}
              >
                <Options options={[{ value: '', label: 'No role' }, ...roleOptions]} />
              </select>
            ),
          },
          { label: 'Last sign-in', width: 7, cell: (u) => ago(u.last_login_at) },
        ]}
      />
      <ConfirmDialog
        title={`Change the role of ${pending?.user.display_name ?? ''}?`}
        subject={pending}
        mutation={change}
        onClose={() => setPending(null)}
        confirmLabel="Change role"
      >
        {pending ? (
          <p>
            {pending.role === null ? (
              <>{pending.user.display_name} will no longer see or change anything in this workspace.</>
            ) : (
              <>
                {pending.user.display_name} becomes <strong>{ROLE_LABEL[pending.role]}</strong>:{' '}
                {ROLE_EXPLAINED[pending.role]}.
              </>
            )}
          </p>
        ) : null}
      </ConfirmDialog>
    </>
  );
}

/**
 * Gives a role to someone who has signed in once, by the email their provider verified or by their user id (shown
 * to them on the "No access yet" page): they then see the workspace.
 */
function AddUser({ roleOptions }: { roleOptions: Option[] }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [user, setUser] = useState('');
  const [role, setRole] = useState<Role>('readonly');
  const add = useMutation({
    mutationFn: () =>
      ok(api.PUT('/api/v1/admin/users/{user}', { params: { path: { user: user.trim() } }, body: { role } })),
    onSuccess: () => {
      setUser('');
      void queryClient.invalidateQueries({ queryKey: ['users'] });
    },
  });
  return (
    <section className="card" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Give someone a role</h2>
      <p className="small muted">
        They sign in once first (they then see “No access yet” and their user id); then enter the email address they
        signed in with, or their user id when their provider has not verified the email or several people share it.
      </p>
      <Form layout="inline" mutation={add} errorTitle="The role was not given" submitLabel="Give role">
        <TextField
          label="Email or user id"
          name="user"
          type="text"
          required
          spellCheck={false}
          value={user}
          onChange={setUser}
        />
        <SelectField label="Role" name="role" value={role} onChange={(v) => setRole(v as Role)} options={roleOptions} />
      </Form>
    </section>
  );
}
