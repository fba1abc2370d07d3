import { Link } from 'react-router';
import { useOnline, useServers } from '../queries.ts';
import { ago, Empty, ErrorNotice, Loading, PageHeader } from '../ui/ui.tsx';

export function Online() {
  const online = useOnline();
  const servers = useServers();
  const groups = new Map<string, { name: string; players: NonNullable<typeof online.data>['data'] }>();
  for (const s of servers.data?.data ?? []) groups.set(s.id, { name: s.display_name ?? s.name, players: [] });
  for (const e of online.data?.data ?? []) {
    const g = groups.get(e.server.id) ?? { name: e.server.name, players: [] };
    g.players.push(e);
    groups.set(e.server.id, g);
  }
  const total = online.data?.data.length ?? 0;
  return (
    <>
      <PageHeader
        title="Online now"
        description={`Public players whose mod uploaded in the last two minutes, by server. ${online.data ? `${total.toLocaleString()} online.` : ''}`}
      />
      <ErrorNotice error={online.error ?? servers.error} />
      {online.isPending || servers.isPending ? (
        <Loading />
      ) : groups.size === 0 ? (
        <Empty>No servers registered yet.</Empty>
      ) : (
        <div className="cards">
          {[...groups].map(([id, g]) => (
            <section key={id} className="card" aria-labelledby={`online-${id}`}>
              <h2 id={`online-${id}`}>
                {g.name} <span className="muted small">({g.players.length})</span>
              </h2>
              {g.players.length === 0 ? (
                <p className="muted">Nobody online.</p>
              ) : (
                <ul className="plain">
                  {g.players.map((e) => (
                    <li key={e.player.uuid}>
                      <Link to={`/players/${e.player.uuid}`}>{e.player.username}</Link>{' '}
                      <span className="muted small">seen {ago(e.last_seen_at)}</span>
                    </li>
                  ))}
                </ul>
              )}
            </section>
          ))}
        </div>
      )}
    </>
  );
}
