import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { api, ok, type Schemas } from '../api.ts';
import { useCan } from '../app/session.tsx';
import { DataTable } from '../ui/data-table.tsx';
import { TextField } from '../ui/form.tsx';
import { ago, Badge, PageHeader, When } from '../ui/ui.tsx';
import { UnblockDialog, useBlockedPlayers } from './player/corrections.tsx';

type AdminPlayer = Schemas['AdminPlayer'];

export function Players() {
  const can = useCan();
  const canCurate = can('write:players');
  const erased = (useLocation().state as { erased?: string } | null)?.erased;
  const blocks = useBlockedPlayers();
  const [unblocking, setUnblocking] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const q = useDeferredValue(search.trim());
  const players = useQuery({
    queryKey: ['players', q],
    queryFn: () => ok(api.GET('/api/v1/admin/players', { params: { query: q ? { search: q } : {} } })),
    placeholderData: (previous) => previous,
  });
  const visibility = useMutation({
    mutationFn: (p: AdminPlayer) =>
      ok(
        api.PUT('/api/v1/admin/players/{player}', {
          params: { path: { player: p.uuid } },
          body: { public: !p.public },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['players'] }),
  });
  const list = players.data?.data ?? [];
  return (
    <>
      <PageHeader
        title="Players"
        description="Everyone who has uploaded. A hidden player is left out of every website read: leaderboards, player pages, who is online."
      />
      {erased ? (
        <p className="notice" role="status">
          Erased {erased}: their values, history, sessions, events and name are gone.
        </p>
      ) : null}
      <div className="filters">
        <TextField
          label="Search players"
          type="search"
          value={search}
          maxLength={64}
          onChange={setSearch}
          placeholder="Name or UUID"
        />
      </div>
      <DataTable
        caption={`Players${q ? ` matching ${q}` : ''}`}
        query={players}
        error={visibility.error}
        empty={q ? `No player matches “${q}”.` : 'No players yet: they appear with their first upload.'}
        rowName={(p) => p.username}
        columns={[
          {
            label: 'Player',
            rowHeader: true,
            cell: (p) => <Link to={`/players/${p.uuid}`}>{p.username}</Link>,
          },
          { label: 'UUID', width: 12, cell: (p) => <code className="small">{p.uuid}</code> },
          {
            label: 'Visibility',
            width: 6,
            cell: (p) => (p.public ? <Badge tone="good">public</Badge> : <Badge tone="warn">hidden</Badge>),
          },
          { label: 'First seen', width: 7, cell: (p) => ago(p.first_seen_at) },
          { label: 'Last seen', width: 7, cell: (p) => ago(p.last_seen_at) },
        ]}
        actions={(p) =>
          canCurate
            ? [
                {
                  label: p.public ? 'Hide' : 'Show',
                  onClick: () => visibility.mutate(p),
                  disabled: visibility.isPending,
                },
              ]
            : []
        }
      />
      {list.length >= 500 ? <p className="small muted">The first 500 shown: search to narrow the list.</p> : null}
      {blocks.data && blocks.data.data.length > 0 ? (
        <section aria-labelledby="blocked-heading">
          <h2 id="blocked-heading">Blocked players</h2>
          <p className="muted">Erased players whose uploads are discarded (counted as rejected: PLAYER_BLOCKED).</p>
          <DataTable
            caption="Blocked players"
            query={blocks}
            rowKey={(b) => b.uuid}
            empty="No player is blocked."
            rowName={(b) => b.uuid}
            columns={[
              { label: 'UUID', rowHeader: true, cell: (b) => <code className="small">{b.uuid}</code> },
              { label: 'Blocked', width: 8, cell: (b) => <When at={b.blocked_at} /> },
            ]}
            actions={(b) => (can('erase:players') ? [{ label: 'Unblock', onClick: () => setUnblocking(b.uuid) }] : [])}
          />
        </section>
      ) : null}
      <UnblockDialog uuid={unblocking} onClose={() => setUnblocking(null)} />
    </>
  );
}
