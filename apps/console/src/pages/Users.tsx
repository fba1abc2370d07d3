import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api, ok, ROLE_EXPLAINED, ROLE_LABEL, type Role, type Schemas } from '../api.ts';
import { useCan, useMe } from '../app/session.tsx';
import { useUsers } from '../queries.ts';
import { ago, ConfirmDialog, Empty, ErrorNotice, Loading, PageHeader } from '../ui/ui.tsx';

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

  if (!can('read:users')) {
    return (
      <>
        <PageHeader title="Users and roles" />
        <p className="notice">Only admins and owners see the users of the workspace.</p>
      </>
    );
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
      <AddUser mayGrant={mayGrant} />
      <ErrorNotice error={users.error} />
      {users.isPending ? (
        <Loading />
      ) : users.data?.data.length === 0 ? (
        <Empty>Nobody has signed in yet.</Empty>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">User</th>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Last sign-in</th>
              </tr>
            </thead>
            <tbody>
              {users.data?.data.map((u) => (
                <tr key={u.id}>
                  <th scope="row">
                    {u.display_name}
                    {u.id === me.id ? <span className="muted small"> (you)</span> : null}
                  </th>
                  <td>{u.email ?? <span className="muted">—</span>}</td>
                  <td>
                    <label className="visually-hidden" htmlFor={`role-${u.id}`}>
                      Role of {u.display_name}
                    </label>
                    <select
                      id={`role-${u.id}`}
                      value={u.role ?? ''}
                      disabled={!mayChange(u) || change.isPending}
                      onChange={(e) => setPending({ user: u, role: (e.target.value || null) as Role | null })}
                    >
                      <option value="">No role</option>
                      {ROLES.map((r) => (
                        <option key={r} value={r} disabled={!mayGrant(r)}>
                          {ROLE_LABEL[r]}
                        </option>
                      ))}
                    </select>
                  </td>
                  <td>{ago(u.last_login_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmDialog
        title={`Change the role of ${pending?.user.display_name ?? ''}?`}
        open={pending !== null}
        confirmLabel="Change role"
        busy={change.isPending}
        error={change.error}
        onCancel={() => {
          change.reset();
          setPending(null);
        }}
        onConfirm={() => pending && change.mutate(pending)}
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
function AddUser({ mayGrant }: { mayGrant: (r: Role | null) => boolean }) {
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
    <form
      className="card add-user"
      aria-labelledby={`${id}-h`}
      onSubmit={(e) => {
        e.preventDefault();
        add.mutate();
      }}
    >
      <h2 id={`${id}-h`}>Give someone a role</h2>
      <p className="small muted">
        They sign in once first (they then see “No access yet” and their user id); then enter the email address they
        signed in with, or their user id when their provider has not verified the email or several people share it.
      </p>
      <div className="filters">
        <label>
          Email or user id
          <input type="text" required spellCheck={false} value={user} onChange={(e) => setUser(e.target.value)} />
        </label>
        <label>
          Role
          <select value={role} onChange={(e) => setRole(e.target.value as Role)}>
            {ROLES.map((r) => (
              <option key={r} value={r} disabled={!mayGrant(r)}>
                {ROLE_LABEL[r]}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="primary" disabled={add.isPending}>
          {add.isPending ? 'Saving…' : 'Give role'}
        </button>
      </div>
      <ErrorNotice error={add.error} title="The role was not given" />
    </form>
  );
}
