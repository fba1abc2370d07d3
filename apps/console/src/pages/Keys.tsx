import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { api, ok } from '../api.ts';
import { useCan } from '../app/session.tsx';
import { useServers } from '../queries.ts';
import { DataTable } from '../ui/data-table.tsx';
import { SelectField, TextField } from '../ui/form.tsx';
import { ago, Badge, ConfirmDialog, Dialog, ErrorNotice, PageHeader, When } from '../ui/ui.tsx';
import { KeyForm } from './keys/key-form.tsx';
import { RevealDialog } from './keys/key-reveal.tsx';
import type { ApiKey, KeyType } from './keys/key-types.ts';
import { RotateDialog } from './keys/rotate-dialog.tsx';

/** The list's filter by status; active keys first. */
const STATUS_FILTER = [
  { value: 'active', label: 'Active' },
  { value: 'all', label: 'All' },
  { value: 'revoked', label: 'Revoked' },
  { value: 'expired', label: 'Expired' },
  { value: 'disabled', label: 'Disabled' },
];

const STATUS_TONE: Record<ApiKey['status'], 'good' | 'bad' | 'warn' | 'neutral'> = {
  active: 'good',
  disabled: 'warn',
  revoked: 'bad',
  expired: 'neutral',
};

export function Keys() {
  const canEdit = useCan()('write:config');
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const keys = useQuery({ queryKey: ['keys'], queryFn: () => ok(api.GET('/api/v1/admin/api-keys')) });
  const servers = useServers();
  const [filter, setFilter] = useState('');
  const [status, setStatus] = useState<'all' | ApiKey['status']>('active');
  const [revealed, setRevealed] = useState<{ key: ApiKey; secret: string; rotatedFrom?: string } | null>(null);
  const [rotating, setRotating] = useState<ApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  const creating = params.get('new');
  const editingId = params.get('edit');
  const editing = keys.data?.data.find((k) => k.id === editingId) ?? null;
  const closeForm = () => setParams({}, { replace: true });

  const refresh = () => queryClient.invalidateQueries({ queryKey: ['keys'] });
  const revoke = useMutation({
    mutationFn: (k: ApiKey) => ok(api.POST('/api/v1/admin/api-keys/{key}/revoke', { params: { path: { key: k.id } } })),
    onSuccess: () => {
      setRevoking(null);
      void refresh();
    },
  });

  const shown = useMemo(() => {
    const q = filter.trim().toLowerCase();
    return (keys.data?.data ?? []).filter(
      (k) =>
        (status === 'all' || k.status === status) &&
        (q === '' ||
          k.name.toLowerCase().includes(q) ||
          (k.description ?? '').toLowerCase().includes(q) ||
          k.prefix.includes(q)),
    );
  }, [keys.data, filter, status]);

  const serverName = (id: string) => servers.data?.data.find((s) => s.id === id)?.name ?? 'a server';
  const restrictions = (k: ApiKey) =>
    [
      k.server_restrictions.length ? `servers: ${k.server_restrictions.map(serverName).join(', ')}` : null,
      k.season_restrictions.length ? `${k.season_restrictions.length} season(s)` : null,
      k.player_restrictions.length ? `${k.player_restrictions.length} player(s)` : null,
    ]
      .filter(Boolean)
      .join('; ') || null;

  return (
    <>
      <PageHeader
        title="API keys"
        description="Keys let the mod upload and your website or bots read. A key's secret is shown once, when it is created or rotated."
        primary={canEdit && { label: 'Create key', onClick: () => setParams({ new: 'client' }) }}
      />
      {!canEdit ? (
        <p className="notice">Your role reads keys; admins and owners create, change and revoke them.</p>
      ) : null}
      <div className="filters">
        <TextField label="Search" type="search" value={filter} onChange={setFilter} placeholder="Name or prefix" />
        <SelectField
          label="Status"
          value={status}
          onChange={(v) => setStatus(v as typeof status)}
          options={STATUS_FILTER}
        />
      </div>
      <ErrorNotice error={keys.error} title="Keys could not be loaded" />
      <DataTable
        caption="API keys"
        rows={shown}
        loading={keys.isPending}
        empty={
          keys.data?.data.length === 0
            ? 'No keys yet. Create a client key for the mod to start uploading.'
            : 'No key matches the filter.'
        }
        rowName={(k) => k.name}
        columns={[
          {
            label: 'Name',
            rowHeader: true,
            width: 10,
            cell: (k) => k.name,
            detail: (k) => (
              <>
                <code className="prefix" title={`${k.prefix}…`}>
                  {k.prefix}…
                </code>
                {k.description ? <span className="block">{k.description}</span> : null}
              </>
            ),
          },
          { label: 'Type', width: 4, cell: (k) => k.type },
          { label: 'Status', width: 5, cell: (k) => <Badge tone={STATUS_TONE[k.status]}>{k.status}</Badge> },
          { label: 'Scopes', width: 7, cell: (k) => <span className="small">{k.scopes.join(', ')}</span> },
          {
            label: 'Restrictions',
            width: 7,
            cell: (k) => <span className="small">{restrictions(k) ?? <span className="muted">none</span>}</span>,
          },
          {
            label: 'Last used',
            width: 5,
            cell: (k) => <span title={k.last_used_at ?? undefined}>{ago(k.last_used_at)}</span>,
          },
          { label: 'Expires', width: 6, cell: (k) => <When at={k.expires_at} dateOnly never="never" /> },
        ]}
        actions={(k) =>
          canEdit && (k.status === 'active' || k.status === 'disabled')
            ? [
                { label: 'Edit', onClick: () => setParams({ edit: k.id }) },
                { label: 'Rotate', onClick: () => setRotating(k) },
                { label: 'Revoke', danger: true, onClick: () => setRevoking(k) },
              ]
            : []
        }
      />

      <Dialog title="Create an API key" open={canEdit && creating !== null} onClose={closeForm} wide>
        {creating !== null ? (
          <KeyForm
            initialType={(['client', 'website', 'integration'].includes(creating) ? creating : 'client') as KeyType}
            onCancel={closeForm}
            onSaved={(key, secret) => {
              closeForm();
              setRevealed({ key, secret: secret! });
              void refresh();
            }}
          />
        ) : null}
      </Dialog>
      <Dialog title={`Edit ${editing?.name ?? 'key'}`} open={canEdit && editing !== null} onClose={closeForm} wide>
        {editing ? (
          <KeyForm
            existing={editing}
            initialType={editing.type}
            onCancel={closeForm}
            onSaved={() => {
              closeForm();
              void refresh();
            }}
          />
        ) : null}
      </Dialog>
      <RotateDialog
        apiKey={rotating}
        onClose={() => setRotating(null)}
        onRotated={(key, secret, from) => {
          setRotating(null);
          setRevealed({ key, secret, rotatedFrom: from });
          void refresh();
        }}
      />
      <ConfirmDialog
        title={`Revoke ${revoking?.name ?? 'key'}?`}
        subject={revoking}
        mutation={revoke}
        onClose={() => setRevoking(null)}
        confirmLabel="Revoke key"
        danger
      >
        <p>
          Every request with this key fails from now on, on every instance
          {revoking?.type === 'client' ? ': the mods using it stop uploading until they get a new key' : ''}. This
          cannot be undone.
        </p>
      </ConfirmDialog>
      <RevealDialog revealed={revealed} servers={servers.data?.data ?? []} onClose={() => setRevealed(null)} />
    </>
  );
}
