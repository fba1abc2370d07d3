import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { api, ok, type Schemas } from '../api.ts';
import { useCan } from '../app/session.tsx';
import { useServers } from '../queries.ts';
import { DataTable } from '../ui/data-table.tsx';
import { Form, TextField } from '../ui/form.tsx';
import { ago, Breakable, Dialog, EnabledBadge, PageHeader } from '../ui/ui.tsx';

type Server = Schemas['Server'];

export function Servers() {
  const canEdit = useCan()('write:config');
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const servers = useServers();
  const [editing, setEditing] = useState<Server | null>(null);
  // `?new=host:port` (from a rejected upload on the overview) opens the form filled in.
  const proposed = params.get('new');
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['servers'] });
  const toggle = useMutation({
    mutationFn: (s: Server) =>
      ok(
        api.PUT('/api/v1/admin/servers/{server}', {
          params: { path: { server: s.id } },
          body: { name: s.name, display_name: s.display_name, hostname: s.hostname, port: s.port, enabled: !s.enabled },
        }),
      ),
    onSuccess: () => void refresh(),
  });

  return (
    <>
      <PageHeader
        title="Servers"
        description="The Minecraft servers whose players upload. An upload names the address the player joined; it is accepted only for a registered, enabled server."
        primary={canEdit && { label: 'Register server', onClick: () => setParams({ new: '' }) }}
      />
      <DataTable
        caption="Servers"
        query={servers}
        error={toggle.error}
        empty="No servers yet. Register the address players type to join (for example play.example.com:25565)."
        rowName={(s) => s.name}
        columns={[
          {
            label: 'Name',
            rowHeader: true,
            width: 10,
            cell: (s) => s.display_name ?? s.name,
            detail: (s) => (s.display_name ? s.name : null),
          },
          {
            label: 'Address',
            width: 12,
            cell: (s) => (
              <code>
                <Breakable text={`${s.hostname}:${s.port}`} />
              </code>
            ),
          },
          { label: 'Status', width: 6, cell: (s) => <EnabledBadge enabled={s.enabled} /> },
          {
            label: 'Last upload',
            width: 7,
            cell: (s) => <span title={s.last_ingest_at ?? undefined}>{ago(s.last_ingest_at)}</span>,
          },
        ]}
        actions={(s) =>
          canEdit
            ? [
                { label: 'Edit', onClick: () => setEditing(s) },
                {
                  label: s.enabled ? 'Disable' : 'Enable',
                  onClick: () => toggle.mutate(s),
                  disabled: toggle.isPending,
                },
              ]
            : []
        }
      />
      <Dialog
        title="Register a server"
        open={canEdit && proposed !== null}
        onClose={() => setParams({}, { replace: true })}
      >
        {proposed !== null ? (
          <ServerForm
            proposed={proposed}
            onDone={() => {
              setParams({}, { replace: true });
              void refresh();
            }}
          />
        ) : null}
      </Dialog>
      <Dialog title={`Edit ${editing?.name ?? 'server'}`} open={editing !== null} onClose={() => setEditing(null)}>
        {editing ? (
          <ServerForm
            existing={editing}
            onDone={() => {
              setEditing(null);
              void refresh();
            }}
          />
        ) : null}
      </Dialog>
    </>
  );
}

function ServerForm({ existing, proposed, onDone }: { existing?: Server; proposed?: string; onDone: () => void }) {
  const [host, port] = (proposed ?? '').split(':');
  const [hostname, setHostname] = useState(existing?.hostname ?? host ?? '');
  const [portText, setPort] = useState(String(existing?.port ?? (port || 25565)));
  const [name, setName] = useState(existing?.name ?? '');
  const [displayName, setDisplayName] = useState(existing?.display_name ?? '');
  const save = useMutation({
    mutationFn: () => {
      const body = {
        hostname: hostname.trim(),
        port: Number(portText),
        ...(name.trim() ? { name: name.trim() } : {}),
        display_name: displayName.trim() === '' ? null : displayName.trim(),
        enabled: existing?.enabled ?? true,
      };
      return existing
        ? ok(api.PUT('/api/v1/admin/servers/{server}', { params: { path: { server: existing.id } }, body }))
        : ok(api.POST('/api/v1/admin/servers', { body }));
    },
    onSuccess: onDone,
  });
  return (
    <Form
      layout="dialog"
      mutation={save}
      errorTitle="The server was not saved"
      submitLabel={existing ? 'Save changes' : 'Register server'}
    >
      <TextField
        label="Hostname"
        name="hostname"
        hint="As players type it to join; the mod sends it with every upload."
        required
        maxLength={253}
        value={hostname}
        onChange={setHostname}
        placeholder="play.example.com"
      />
      <TextField
        label="Port"
        name="port"
        required
        type="number"
        min={1}
        max={65535}
        value={portText}
        onChange={setPort}
      />
      <TextField
        label="Name (optional)"
        name="name"
        maxLength={120}
        value={name}
        onChange={setName}
        placeholder="Defaults to the hostname"
      />
      <TextField
        label="Display name (optional)"
        name="display_name"
        maxLength={160}
        value={displayName}
        onChange={setDisplayName}
        placeholder="Shown on websites"
      />
    </Form>
  );
}
