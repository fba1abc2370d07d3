import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';
import { api, ok } from '../../api.ts';
import { FieldGroup, TextField } from '../../ui/form.tsx';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Picks the players a key is restricted to: search by name or UUID, add, remove. */
export function PlayerPicker({ value, onChange }: { value: string[]; onChange: (v: string[]) => void }) {
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
    <FieldGroup legend="Players this key may be used for" name="player_restrictions" hint="None chosen: every player.">
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
      <TextField
        label="Find a player"
        type="search"
        value={search}
        maxLength={64}
        onChange={setSearch}
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
    </FieldGroup>
  );
}
