import { useServers } from '../queries.ts';
import { SelectField } from './form.tsx';

/**
 * "Server": whose values a page shows, "All servers" (the network totals, value '') or one server's alone (its id,
 * sent as `server=`). Shown only when the workspace has more than one server (with one, both are the same).
 */
export function ServerPicker({ value, onChange }: { value: string; onChange: (server: string) => void }) {
  const servers = useServers();
  const all = servers.data?.data ?? [];
  if (all.length < 2) return null;
  return (
    <SelectField
      label="Server"
      value={value}
      onChange={onChange}
      options={[
        { value: '', label: 'All servers' },
        ...all.map((s) => ({ value: s.id, label: s.display_name ?? s.name })),
      ]}
    />
  );
}
