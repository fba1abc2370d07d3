import { Link } from 'react-router';
import { useOnline, useServers } from '../queries.ts';
import { DataTable } from '../ui/data-table.tsx';
import { ago, Empty, ErrorNotice, formatCount, Loading, PageHeader } from '../ui/ui.tsx';

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
        description={`Public players whose mod uploaded in the last two minutes, by server. ${online.data ? `${formatCount(total)} online.` : ''}`}
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
                {g.name} <span className="muted small">({formatCount(g.players.length)})</span>
              </h2>
              <DataTable
                caption={`Online on ${g.name}`}
                rows={g.players}
                rowKey={(e) => e.player.uuid}
                rowName={(e) => e.player.username}
                empty="Nobody online."
                columns={[
                  {
                    label: 'Player',
                    rowHeader: true,
                    cell: (e) => <Link to={`/players/${e.player.uuid}`}>{e.player.username}</Link>,
                  },
                  { label: 'Seen', width: 6, cell: (e) => <span title={e.last_seen_at}>{ago(e.last_seen_at)}</span> },
                ]}
              />
            </section>
          ))}
        </div>
      )}
    </>
  );
}
