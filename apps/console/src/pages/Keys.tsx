import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDeferredValue, useId, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { api, ok, type Schemas } from '../api.ts';
import { useCan, useMe } from '../app/session.tsx';
import { useSeasons, useServers } from '../queries.ts';
import { DialogForm, RevealSecretDialog } from '../ui/forms.tsx';
import {
  ago,
  Badge,
  ConfirmDialog,
  CopyButton,
  Dialog,
  DownloadButton,
  Empty,
  ErrorNotice,
  Loading,
  PageHeader,
  When,
} from '../ui/ui.tsx';

type ApiKey = Schemas['ApiKey'];
type KeyType = ApiKey['type'];
type Server = Schemas['Server'];

const SCOPES = ['ingest:write', 'players:read', 'stats:read', 'leaderboards:read', 'presence:read'] as const;
const READS = SCOPES.filter((s) => s !== 'ingest:write');

const TYPES: { type: KeyType; label: string; help: string; scopes: string[] }[] = [
  {
    type: 'client',
    label: 'Client (the mod)',
    help: 'Goes into the HM Stats mod on players’ clients: uploads statistics, reads nothing.',
    scopes: ['ingest:write'],
  },
  {
    type: 'website',
    label: 'Website',
    help: 'For your website: reads players, statistics, leaderboards and who is online.',
    scopes: [...READS],
  },
  {
    type: 'integration',
    label: 'Integration',
    help: 'For bots and tools: any scopes, including uploads.',
    scopes: [...READS],
  },
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

  return (
    <>
      <PageHeader
        title="API keys"
        description="Keys let the mod upload and your website or bots read. A key's secret is shown once, when it is created or rotated."
        actions={
          canEdit ? (
            <button type="button" className="primary" onClick={() => setParams({ new: 'client' })}>
              Create key
            </button>
          ) : null
        }
      />
      {!canEdit ? (
        <p className="notice">Your role reads keys; admins and owners create, change and revoke them.</p>
      ) : null}
      <div className="filters">
        <label>
          Search
          <input
            type="search"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            placeholder="Name or prefix"
          />
        </label>
        <label>
          Status
          <select value={status} onChange={(e) => setStatus(e.target.value as typeof status)}>
            <option value="active">Active</option>
            <option value="all">All</option>
            <option value="revoked">Revoked</option>
            <option value="expired">Expired</option>
            <option value="disabled">Disabled</option>
          </select>
        </label>
      </div>
      <ErrorNotice error={keys.error} title="Keys could not be loaded" />
      {keys.isPending ? (
        <Loading />
      ) : shown.length === 0 ? (
        <Empty>
          {keys.data?.data.length === 0
            ? 'No keys yet. Create a client key for the mod to start uploading.'
            : 'No key matches the filter.'}
        </Empty>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col">Status</th>
                <th scope="col">Scopes</th>
                <th scope="col">Restrictions</th>
                <th scope="col">Last used</th>
                <th scope="col">Expires</th>
                {canEdit ? (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {shown.map((k) => (
                <tr key={k.id}>
                  <th scope="row">
                    {k.name}
                    <div className="small muted">
                      <code>{k.prefix}…</code>
                      {k.description ? ` · ${k.description}` : ''}
                    </div>
                  </th>
                  <td>{k.type}</td>
                  <td>
                    <Badge tone={STATUS_TONE[k.status]}>{k.status}</Badge>
                  </td>
                  <td className="small">{k.scopes.join(', ')}</td>
                  <td className="small">
                    {[
                      k.server_restrictions.length
                        ? `servers: ${k.server_restrictions.map(serverName).join(', ')}`
                        : null,
                      k.season_restrictions.length ? `${k.season_restrictions.length} season(s)` : null,
                      k.player_restrictions.length ? `${k.player_restrictions.length} player(s)` : null,
                    ]
                      .filter(Boolean)
                      .join('; ') || <span className="muted">none</span>}
                  </td>
                  <td>
                    <span title={k.last_used_at ?? undefined}>{ago(k.last_used_at)}</span>
                  </td>
                  <td>
                    <When at={k.expires_at} dateOnly never="never" />
                  </td>
                  {canEdit ? (
                    <td className="row-actions">
                      {k.status === 'active' || k.status === 'disabled' ? (
                        <>
                          <button type="button" onClick={() => setParams({ edit: k.id })} aria-label={`Edit ${k.name}`}>
                            Edit
                          </button>
                          <button type="button" onClick={() => setRotating(k)} aria-label={`Rotate ${k.name}`}>
                            Rotate
                          </button>
                          <button
                            type="button"
                            className="danger"
                            onClick={() => setRevoking(k)}
                            aria-label={`Revoke ${k.name}`}
                          >
                            Revoke
                          </button>
                        </>
                      ) : null}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

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
        open={revoking !== null}
        confirmLabel="Revoke key"
        danger
        busy={revoke.isPending}
        error={revoke.error}
        onCancel={() => {
          revoke.reset();
          setRevoking(null);
        }}
        onConfirm={() => revoking && revoke.mutate(revoking)}
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

/** Create (with a type) or edit a key: scopes preset by type, restriction pickers, expiry, description. */
function KeyForm({
  existing,
  initialType,
  onCancel,
  onSaved,
}: {
  existing?: ApiKey;
  initialType: KeyType;
  onCancel: () => void;
  onSaved: (key: ApiKey, secret?: string) => void;
}) {
  const id = useId();
  const servers = useServers();
  const seasons = useSeasons();
  const [name, setName] = useState(existing?.name ?? '');
  const [type, setType] = useState<KeyType>(initialType);
  const [scopes, setScopes] = useState<string[]>(existing?.scopes ?? TYPES.find((t) => t.type === initialType)!.scopes);
  const [description, setDescription] = useState(existing?.description ?? '');
  const [expires, setExpires] = useState(existing?.expires_at ? existing.expires_at.slice(0, 10) : '');
  const [serverIds, setServerIds] = useState<string[]>(existing?.server_restrictions ?? []);
  const [seasonIds, setSeasonIds] = useState<string[]>(existing?.season_restrictions ?? []);
  const [players, setPlayers] = useState<string[]>(existing?.player_restrictions ?? []);

  const allowed = (s: string) =>
    type === 'client' ? s === 'ingest:write' : type === 'website' ? s !== 'ingest:write' : true;
  const body = () => ({
    name: name.trim(),
    description: description.trim() === '' ? null : description.trim(),
    scopes: scopes.filter(allowed),
    server_restrictions: serverIds,
    season_restrictions: seasonIds,
    player_restrictions: players,
    expires_at: expires === '' ? null : new Date(`${expires}T23:59:59Z`).toISOString(),
  });
  const save = useMutation({
    mutationFn: async () => {
      if (existing) {
        const r = await ok(
          api.PUT('/api/v1/admin/api-keys/{key}', { params: { path: { key: existing.id } }, body: body() }),
        );
        return { key: r.data, secret: undefined };
      }
      const r = await ok(api.POST('/api/v1/admin/api-keys', { body: { ...body(), type } }));
      return { key: r.data, secret: r.secret };
    },
    onSuccess: ({ key, secret }) => onSaved(key, secret),
  });
  const toggle = (list: string[], set: (l: string[]) => void, v: string) =>
    set(list.includes(v) ? list.filter((x) => x !== v) : [...list, v]);

  return (
    <DialogForm
      onSubmit={() => save.mutate()}
      error={save.error}
      errorTitle={existing ? 'The key was not changed' : 'The key was not created'}
      pending={save.isPending}
      submitLabel={existing ? 'Save changes' : 'Create key'}
      onCancel={onCancel}
    >
      <label htmlFor={`${id}-name`}>Name</label>
      <input
        id={`${id}-name`}
        required
        maxLength={100}
        value={name}
        onChange={(e) => setName(e.target.value)}
        placeholder={type === 'client' ? 'Mod uploads' : 'Website'}
      />
      {existing ? null : (
        <fieldset>
          <legend>Type</legend>
          {TYPES.map((t) => (
            <label key={t.type} className="choice">
              <input
                type="radio"
                name="type"
                value={t.type}
                checked={type === t.type}
                onChange={() => {
                  setType(t.type);
                  setScopes(t.scopes);
                }}
              />
              <span>
                <strong>{t.label}</strong>
                <span className="small muted block">{t.help}</span>
              </span>
            </label>
          ))}
        </fieldset>
      )}
      <fieldset>
        <legend>Scopes</legend>
        <div className="checks">
          {SCOPES.map((s) => (
            <label key={s} className="choice inline">
              <input
                type="checkbox"
                checked={scopes.includes(s) && allowed(s)}
                disabled={!allowed(s)}
                onChange={() => toggle(scopes, setScopes, s)}
              />
              <code>{s}</code>
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset>
        <legend>Servers this key may be used for</legend>
        <p className="small muted">None ticked: every server.</p>
        {servers.data?.data.length ? (
          <div className="checks">
            {servers.data.data.map((s) => (
              <label key={s.id} className="choice inline">
                <input
                  type="checkbox"
                  checked={serverIds.includes(s.id)}
                  onChange={() => toggle(serverIds, setServerIds, s.id)}
                />
                <span>
                  {s.display_name ?? s.name}
                  <span className="muted small block">{`${s.hostname}:${s.port}`}</span>
                </span>
              </label>
            ))}
          </div>
        ) : (
          <p className="small muted">No servers registered yet.</p>
        )}
      </fieldset>
      <fieldset>
        <legend>Seasons this key may be used for</legend>
        <p className="small muted">None ticked: every season.</p>
        <div className="checks">
          {seasons.data?.data.map((s) => (
            <label key={s.id} className="choice inline">
              <input
                type="checkbox"
                checked={seasonIds.includes(s.id)}
                onChange={() => toggle(seasonIds, setSeasonIds, s.id)}
              />
              {s.name}
            </label>
          ))}
        </div>
      </fieldset>
      <PlayerPicker value={players} onChange={setPlayers} />
      <label htmlFor={`${id}-expires`}>Expires on (optional)</label>
      <input id={`${id}-expires`} type="date" value={expires} onChange={(e) => setExpires(e.target.value)} />
      <label htmlFor={`${id}-description`}>Description (optional)</label>
      <input
        id={`${id}-description`}
        maxLength={500}
        value={description}
        onChange={(e) => setDescription(e.target.value)}
      />
    </DialogForm>
  );
}

const GRACE: { label: string; seconds: number }[] = [
  { label: 'None: the old key stops at once', seconds: 0 },
  { label: '1 hour', seconds: 3_600 },
  { label: '1 day', seconds: 86_400 },
  { label: '7 days', seconds: 604_800 },
];

function RotateDialog({
  apiKey,
  onClose,
  onRotated,
}: {
  apiKey: ApiKey | null;
  onClose: () => void;
  onRotated: (key: ApiKey, secret: string, from: string) => void;
}) {
  const [grace, setGrace] = useState(86_400);
  const rotate = useMutation({
    mutationFn: (k: ApiKey) =>
      ok(
        api.POST('/api/v1/admin/api-keys/{key}/rotate', {
          params: { path: { key: k.id } },
          body: grace > 0 ? { grace_seconds: grace } : {},
        }),
      ),
    onSuccess: (r) => onRotated(r.data, r.secret, apiKey?.name ?? ''),
  });
  return (
    <Dialog
      title={`Rotate ${apiKey?.name ?? 'key'}`}
      open={apiKey !== null}
      onClose={() => {
        rotate.reset();
        onClose();
      }}
    >
      <DialogForm
        onSubmit={() => apiKey && rotate.mutate(apiKey)}
        error={rotate.error}
        errorTitle="The key was not rotated"
        pending={rotate.isPending}
        submitLabel="Rotate key"
        pendingLabel="Rotating…"
        onCancel={onClose}
      >
        <p>
          A new key with the same settings replaces this one. Give the clients using it time to switch: the old key
          keeps working during the grace window, then stops.
        </p>
        <fieldset>
          <legend>Grace window</legend>
          {GRACE.map((g) => (
            <label key={g.seconds} className="choice">
              <input type="radio" name="grace" checked={grace === g.seconds} onChange={() => setGrace(g.seconds)} />
              {g.label}
            </label>
          ))}
        </fieldset>
      </DialogForm>
    </Dialog>
  );
}

/** The mod's config file for a client key: the service's address for players (PUBLIC_URL) and the key. */
function modConfig(url: string, secret: string): string {
  return `${JSON.stringify({ api: { url, key: secret } }, null, 2)}\n`;
}

/** The secret, once: copy it (and, for client keys, the mod's config) before closing. */
function RevealDialog({
  revealed,
  servers,
  onClose,
}: {
  revealed: { key: ApiKey; secret: string; rotatedFrom?: string } | null;
  servers: Server[];
  onClose: () => void;
}) {
  const id = useId();
  const me = useMe();
  const key = revealed?.key;
  const allowedServers = key?.server_restrictions.length
    ? servers.filter((s) => key.server_restrictions.includes(s.id))
    : null;
  const config = revealed ? modConfig(me.public_url, revealed.secret) : '';
  return (
    <RevealSecretDialog
      title={revealed?.rotatedFrom ? 'Your new key' : 'Your key is ready'}
      open={revealed !== null}
      label={`Secret of ${key?.name ?? 'the key'}`}
      secret={revealed?.secret ?? ''}
      onClose={onClose}
    >
      {key?.type === 'client' ? (
        <>
          <h3>Mod configuration</h3>
          <p>
            Put this in <code>config/hm-stats.json</code> on each player’s client (or enter the URL and key in the mod’s
            settings), then restart the game.
          </p>
          {me.public_url_loopback ? (
            <div className="notice warn" id={`${id}-loopback`}>
              <p>
                <strong>Players cannot reach {me.public_url}.</strong> On a player's computer, 127.0.0.1 and localhost
                mean that computer itself, not this service. Set <code>PUBLIC_URL</code> to the address players use (for
                example <code>https://stats.example.com</code>), restart the service, and put that address in the config
                as <code>url</code>.
              </p>
            </div>
          ) : null}
          <label htmlFor={`${id}-config`}>config/hm-stats.json</label>
          <textarea
            id={`${id}-config`}
            className="code mono"
            readOnly
            rows={7}
            value={config}
            aria-describedby={me.public_url_loopback ? `${id}-loopback` : undefined}
            onFocus={(e) => e.target.select()}
          />
          <div className="form-actions">
            <CopyButton text={config} label="Copy config" />
            <DownloadButton text={config} filename="hm-stats.json" label="Download hm-stats.json" />
          </div>
          <p className="small muted">
            {allowedServers
              ? `This key uploads only from ${allowedServers.map((s) => `${s.hostname}:${s.port}`).join(', ')}.`
              : 'This key uploads from every registered server.'}
          </p>
        </>
      ) : null}
    </RevealSecretDialog>
  );
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Picks the players a key is restricted to: search by name or UUID, add, remove. */
function PlayerPicker({ value, onChange }: { value: string[]; onChange: (v: string[]) => void }) {
  const id = useId();
  const [search, setSearch] = useState('');
  const [names, setNames] = useState<Record<string, string>>({});
  const q = useDeferredValue(search.trim());
  const found = useQuery({
    queryKey: ['players', q],
    enabled: q.length > 0,
    queryFn: () => ok(api.GET('/api/v1/admin/players', { params: { query: { search: q } } })),
  });
  const add = (uuid: string, name?: string) => {
    const u = uuid.toLowerCase();
    if (name) setNames((n) => ({ ...n, [u]: name }));
    if (!value.includes(u)) onChange([...value, u]);
  };
  const results = (found.data?.data ?? []).filter((p) => !value.includes(p.uuid)).slice(0, 6);
  return (
    <fieldset>
      <legend>Players this key may be used for</legend>
      <p className="small muted">None chosen: every player.</p>
      {value.length > 0 ? (
        <ul className="chips" aria-label="Chosen players">
          {value.map((u) => (
            <li key={u}>
              {names[u] ?? <code>{u}</code>}
              <button
                type="button"
                className="icon"
                aria-label={`Remove ${names[u] ?? u}`}
                onClick={() => onChange(value.filter((x) => x !== u))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <label htmlFor={`${id}-find`}>Find a player</label>
      <input
        id={`${id}-find`}
        type="search"
        value={search}
        maxLength={64}
        onChange={(e) => setSearch(e.target.value)}
        placeholder="Name or UUID"
        autoComplete="off"
      />
      {q ? (
        <ul className="plain picker-results" aria-live="polite">
          {results.map((p) => (
            <li key={p.uuid}>
              <button type="button" onClick={() => add(p.uuid, p.username)}>
                Add {p.username}
              </button>{' '}
              <code className="small muted">{p.uuid}</code>
            </li>
          ))}
          {results.length === 0 && UUID.test(q) && !value.includes(q.toLowerCase()) ? (
            <li>
              <button type="button" onClick={() => add(q)}>
                Add {q.toLowerCase()}
              </button>{' '}
              <span className="small muted">(not seen yet)</span>
            </li>
          ) : null}
          {found.data?.data.length === 0 && !UUID.test(q) ? <li className="muted">No player matches.</li> : null}
        </ul>
      ) : null}
    </fieldset>
  );
}
