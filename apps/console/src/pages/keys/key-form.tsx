import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok } from '../../api.ts';
import { useSeasons, useServers } from '../../queries.ts';
import { Checkboxes, Form, Radios, TextField } from '../../ui/form.tsx';
import { type ApiKey, type KeyType, SCOPE_HINTS, SCOPES, TYPES } from './key-types.ts';
import { PlayerPicker } from './player-picker.tsx';

/** Create (with a type) or edit a key: scopes preset by type, restriction pickers, expiry, description. */
export function KeyForm({
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
    type === 'client' ? s === 'ingest:write' : type === 'website' ? !s.startsWith('ingest:') : true;
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

  return (
    <Form
      layout="dialog"
      mutation={save}
      errorTitle={existing ? 'The key was not changed' : 'The key was not created'}
      submitLabel={existing ? 'Save changes' : 'Create key'}
      onCancel={onCancel}
    >
      <TextField
        label="Name"
        name="name"
        required
        maxLength={100}
        value={name}
        onChange={setName}
        placeholder={type === 'client' ? 'Mod uploads' : 'Website'}
      />
      {existing ? null : (
        <Radios
          legend="Type"
          name="type"
          value={type}
          onChange={(t) => {
            setType(t);
            setScopes(TYPES.find((x) => x.type === t)!.scopes);
          }}
          options={TYPES.map((t) => ({ value: t.type, label: <strong>{t.label}</strong>, hint: t.help }))}
        />
      )}
      <Checkboxes
        legend="Scopes"
        name="scopes"
        inline
        value={scopes.filter(allowed)}
        onChange={setScopes}
        options={SCOPES.map((s) => ({
          value: s,
          label: <code>{s}</code>,
          hint: SCOPE_HINTS[s],
          disabled: !allowed(s),
        }))}
      />
      <Checkboxes
        legend="Servers this key may be used for"
        name="server_restrictions"
        hint={servers.data?.data.length ? 'None ticked: every server.' : 'No servers registered yet.'}
        inline
        value={serverIds}
        onChange={setServerIds}
        options={(servers.data?.data ?? []).map((s) => ({
          value: s.id,
          label: s.display_name ?? s.name,
          hint: `${s.hostname}:${s.port}`,
        }))}
      />
      <Checkboxes
        legend="Seasons this key may be used for"
        name="season_restrictions"
        hint="None ticked: every season."
        inline
        value={seasonIds}
        onChange={setSeasonIds}
        options={(seasons.data?.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
      />
      <PlayerPicker value={players} onChange={setPlayers} />
      <TextField label="Expires on (optional)" name="expires_at" type="date" value={expires} onChange={setExpires} />
      <TextField
        label="Description (optional)"
        name="description"
        maxLength={500}
        value={description}
        onChange={setDescription}
      />
    </Form>
  );
}
