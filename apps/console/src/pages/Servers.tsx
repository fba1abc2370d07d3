import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { api, ok, type Schemas } from '../api.ts';
import { useCan } from '../app/session.tsx';
import { useServers } from '../queries.ts';
import { DialogForm } from '../ui/forms.tsx';
import { ago, Badge, Dialog, Empty, ErrorNotice, Loading, PageHeader } from '../ui/ui.tsx';

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
        actions={
          canEdit ? (
            <button type="button" className="primary" onClick={() => setParams({ new: '' })}>
              Register server
            </button>
          ) : null
        }
      />
      <ErrorNotice error={servers.error ?? toggle.error} />
      {servers.isPending ? (
        <Loading />
      ) : servers.data?.data.length === 0 ? (
        <Empty>No servers yet. Register the address players type to join (for example play.example.com:25565).</Empty>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Address</th>
                <th scope="col">Status</th>
                <th scope="col">Last upload</th>
                {canEdit ? (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {servers.data?.data.map((s) => (
                <tr key={s.id}>
                  <th scope="row">
                    {s.display_name ?? s.name}
                    {s.display_name ? <div className="small muted">{s.name}</div> : null}
                  </th>
                  <td>
                    <code>
                      {s.hostname}:{s.port}
                    </code>
                  </td>
                  <td>{s.enabled ? <Badge tone="good">enabled</Badge> : <Badge tone="warn">disabled</Badge>}</td>
                  <td>
                    <span title={s.last_ingest_at ?? undefined}>{ago(s.last_ingest_at)}</span>
                  </td>
                  {canEdit ? (
                    <td className="row-actions">
                      <button type="button" onClick={() => setEditing(s)} aria-label={`Edit ${s.name}`}>
                        Edit
                      </button>
                      <button
                        type="button"
                        onClick={() => toggle.mutate(s)}
                        disabled={toggle.isPending}
                        aria-label={`${s.enabled ? 'Disable' : 'Enable'} ${s.name}`}
                      >
                        {s.enabled ? 'Disable' : 'Enable'}
                      </button>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
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
  const id = useId();
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
    <DialogForm
      onSubmit={() => save.mutate()}
      error={save.error}
      errorTitle="The server was not saved"
      pending={save.isPending}
      submitLabel={existing ? 'Save changes' : 'Register server'}
    >
      <label htmlFor={`${id}-host`}>Hostname</label>
      <input
        id={`${id}-host`}
        required
        maxLength={253}
        value={hostname}
        onChange={(e) => setHostname(e.target.value)}
        placeholder="play.example.com"
        aria-describedby={`${id}-host-help`}
      />
      <p id={`${id}-host-help`} className="small muted">
        As players type it to join; the mod sends it with every upload.
      </p>
      <label htmlFor={`${id}-port`}>Port</label>
      <input
        id={`${id}-port`}
        required
        type="number"
        min={1}
        max={65535}
        value={portText}
        onChange={(e) => setPort(e.target.value)}
      />
      <label htmlFor={`${id}-name`}>Name (optional)</label>
      <input
        id={`${id}-name`}
        maxLength={120}
        value={name}
        onChange={(e) => setName(e.target.value)}
        placeholder="Defaults to the hostname"
      />
      <label htmlFor={`${id}-display`}>Display name (optional)</label>
      <input
        id={`${id}-display`}
        maxLength={160}
        value={displayName}
        onChange={(e) => setDisplayName(e.target.value)}
        placeholder="Shown on websites"
      />
    </DialogForm>
  );
}
