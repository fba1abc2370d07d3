import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';
import { Link } from 'react-router';
import { api, ok, type Schemas } from '../api.ts';
import { useCan } from '../app/session.tsx';
import { ago, Badge, Empty, ErrorNotice, Loading, PageHeader } from '../ui/ui.tsx';

type AdminPlayer = Schemas['AdminPlayer'];

export function Players() {
  const canCurate = useCan()('write:players');
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
      <div className="filters">
        <label>
          Search players
          <input
            type="search"
            value={search}
            maxLength={64}
            onChange={(e) => setSearch(e.target.value)}
            placeholder="Name or UUID"
          />
        </label>
      </div>
      <ErrorNotice error={players.error ?? visibility.error} />
      {players.isPending ? (
        <Loading />
      ) : list.length === 0 ? (
        <Empty>{q ? `No player matches “${q}”.` : 'No players yet: they appear with their first upload.'}</Empty>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Players{q ? ` matching ${q}` : ''}</caption>
            <thead>
              <tr>
                <th scope="col">Player</th>
                <th scope="col">UUID</th>
                <th scope="col">Visibility</th>
                <th scope="col">First seen</th>
                <th scope="col">Last seen</th>
                {canCurate ? (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {list.map((p) => (
                <tr key={p.id}>
                  <th scope="row">
                    <Link to={`/players/${p.uuid}`}>{p.username}</Link>
                  </th>
                  <td>
                    <code className="small">{p.uuid}</code>
                  </td>
                  <td>{p.public ? <Badge tone="good">public</Badge> : <Badge tone="warn">hidden</Badge>}</td>
                  <td>{ago(p.first_seen_at)}</td>
                  <td>{ago(p.last_seen_at)}</td>
                  {canCurate ? (
                    <td className="row-actions">
                      <button
                        type="button"
                        disabled={visibility.isPending}
                        onClick={() => visibility.mutate(p)}
                        aria-label={`${p.public ? 'Hide' : 'Show'} ${p.username}`}
                      >
                        {p.public ? 'Hide' : 'Show'}
                      </button>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list.length >= 500 ? <p className="small muted">The first 500 shown: search to narrow the list.</p> : null}
    </>
  );
}
