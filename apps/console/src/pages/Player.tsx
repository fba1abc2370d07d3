import { formatStatValue } from '@statboard/sdk/format';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, ok, StatboardError } from '../api.ts';
import { useCan } from '../app/session.tsx';
import { useServers, useStatLabels } from '../queries.ts';
import { Chart } from '../ui/charts.tsx';
import { type Column, DataTable } from '../ui/data-table.tsx';
import { ServerPicker } from '../ui/server-picker.tsx';
import { StatPicker, TIME_PLAYED } from '../ui/stat-picker.tsx';
import { StatValue } from '../ui/stat-value.tsx';
import { ago, Badge, Empty, ErrorNotice, formatCount, Loading, PageHeader } from '../ui/ui.tsx';
import {
  ErasePlayerDialog,
  RemoveValueDialog,
  ResetSeasonDialog,
  UnblockDialog,
  useBlockedPlayers,
  type ValueToRemove,
} from './player/corrections.tsx';

/** The most servers whose values the player page shows beside the network totals (more: the Server picker). */
const SIDE_BY_SIDE = 6;

const dayFormat = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });

export function Player() {
  const { uuid = '' } = useParams();
  // '' : the network totals (every server); else one server's values alone.
  const [server, setServer] = useState('');
  const scope = server === '' ? {} : { server };
  const stats = useQuery({
    queryKey: ['player-stats', uuid, server],
    queryFn: () =>
      ok(api.GET('/api/v1/admin/players/{player}/stats', { params: { path: { player: uuid }, query: scope } })),
    // The same player's values stay on screen while another server's load.
    placeholderData: (previous) => (previous?.player.uuid === uuid ? previous : undefined),
  });
  // With the network totals, each server's values beside them (a column per server, up to `SIDE_BY_SIDE`).
  const servers = useServers().data?.data ?? [];
  const sideBySide = server === '' && servers.length > 1 && servers.length <= SIDE_BY_SIDE ? servers : [];
  const perServer = useQueries({
    queries: sideBySide.map((s) => ({
      queryKey: ['player-stats', uuid, s.id],
      queryFn: () =>
        ok(
          api.GET('/api/v1/admin/players/{player}/stats', {
            params: { path: { player: uuid }, query: { server: s.id } },
          }),
        ),
      retry: false,
    })),
  });
  const labels = useStatLabels();
  const [chosen, setChosen] = useState<string | null>(null);
  const label = (key: string) => labels(key).name;
  const values = [...(stats.data?.stats ?? [])].sort(
    (a, b) => label(a.key).localeCompare(label(b.key)) || a.key.localeCompare(b.key),
  );
  const stat = chosen ?? (values.find((v) => v.key === TIME_PLAYED) ?? values[0])?.key ?? null;
  const unit = stat ? labels(stat).unit : 'count';
  // The chart's summary is read out instead of the picture: units spelt out.
  const spoken = (v: number) => formatStatValue(v, unit, { style: 'long' });
  const season = stats.data?.season;
  const history = useQuery({
    queryKey: ['history', uuid, stat, server],
    enabled: stat !== null,
    queryFn: () =>
      ok(
        api.GET('/api/v1/admin/players/{player}/stats/history', {
          params: { path: { player: uuid }, query: { stat: stat!, interval: 'day', ...scope } },
        }),
      ),
  });
  const rank = useQuery({
    queryKey: ['rank', uuid, stat, season?.id, server],
    enabled: stat !== null && season !== undefined,
    queryFn: () =>
      ok(
        api.GET('/api/v1/admin/leaderboards/rank', {
          params: { query: { season: season!.id, stat: stat!, player: uuid, around: 2, ...scope } },
        }),
      ),
    retry: false,
  });
  const hidden = stats.error instanceof StatboardError && stats.error.status === 404;
  const name = stats.data?.player.username ?? uuid;
  const points = history.data?.points ?? [];
  const can = useCan();
  const navigate = useNavigate();
  const blocks = useBlockedPlayers();
  const blocked = blocks.data?.data.some((b) => b.uuid === uuid.toLowerCase()) ?? false;
  const [removing, setRemoving] = useState<ValueToRemove | null>(null);
  const [resetting, setResetting] = useState(false);
  const [erasing, setErasing] = useState(false);
  const [unblocking, setUnblocking] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const subject = { uuid, name };
  // The server the picker shows alone: "Remove value" and "Reset season" remove its values only.
  const picked = servers.find((s) => s.id === server);
  const onServer = picked ? { id: picked.id, name: picked.display_name ?? picked.name } : undefined;
  const canRemove = can('remove:values') && season !== undefined && values.length > 0;
  // Also for a player with no values a website can see (hidden, or none in the active season).
  // The chosen statistic's value: the one "Remove value" removes (beside its chart, so the table keeps its columns).
  const chosenValue = values.find((v) => v.key === stat);
  const canErase = can('erase:players') && (stats.data !== undefined || hidden);
  return (
    <>
      <PageHeader
        title={name}
        description={
          <>
            <code>{uuid}</code>
            {season ? ` · ${season.name}` : ''} · <Link to="/players">All players</Link>
            {blocked ? (
              <>
                {' '}
                <Badge tone="bad">blocked</Badge>
              </>
            ) : null}
          </>
        }
        actions={
          <>
            {canRemove ? (
              <button type="button" onClick={() => setResetting(true)}>
                Reset season
              </button>
            ) : null}
            {canErase ? (
              <button type="button" className="danger" onClick={() => setErasing(true)}>
                Erase player
              </button>
            ) : null}
            {blocked && can('erase:players') ? (
              <button type="button" onClick={() => setUnblocking(uuid.toLowerCase())}>
                Unblock
              </button>
            ) : null}
          </>
        }
      />
      {blocked ? (
        <p className="notice warn" role="status">
          This player is blocked: their uploads are discarded and counted as rejected (PLAYER_BLOCKED).
        </p>
      ) : null}
      {done ? (
        <p className="notice" role="status">
          {done}
        </p>
      ) : null}
      {hidden ? (
        <p className="notice" role="status">
          This player has no values a website can see: they are hidden, or have not uploaded in the active season. Show
          them on the <Link to="/players">Players</Link> page to list their values here.
        </p>
      ) : (
        <ErrorNotice error={stats.error} title="The player could not be loaded" />
      )}
      {stats.isPending ? (
        <Loading lines={6} />
      ) : stats.data ? (
        // With the servers' columns the values take the page's width, the chart under them.
        <div className={sideBySide.length > 0 ? 'split stacked' : 'split'}>
          <section aria-labelledby="values-heading">
            <h2 id="values-heading">Values</h2>
            <ServerPicker value={server} onChange={setServer} />
            <DataTable
              caption={`Values of ${name}${season ? ` in ${season.name}` : ''}`}
              rows={values}
              empty="No values in this season yet."
              tall
              rowKey={(v) => v.key}
              rowName={(v) => label(v.key)}
              current={(v) => v.key === stat}
              columns={[
                {
                  label: 'Statistic',
                  rowHeader: true,
                  width: 10,
                  cell: (v) => (
                    <button type="button" className="link" onClick={() => setChosen(v.key)}>
                      {label(v.key)}
                    </button>
                  ),
                },
                {
                  label: sideBySide.length > 0 ? 'Network total' : 'Value',
                  numeric: true,
                  width: 7,
                  cell: (v) => <StatValue value={v.value} unit={labels(v.key).unit} />,
                },
                ...sideBySide.map(
                  (s, i): Column<(typeof values)[number]> => ({
                    label: s.display_name ?? s.name,
                    numeric: true,
                    width: 6,
                    cell: (v) => {
                      const there = perServer[i]?.data?.stats.find((x) => x.key === v.key);
                      return there ? (
                        <StatValue value={there.value} unit={labels(v.key).unit} />
                      ) : (
                        <span className="muted">{perServer[i]?.isPending ? '…' : '—'}</span>
                      );
                    },
                  }),
                ),
                {
                  label: 'Changed',
                  width: 6,
                  cell: (v) => (
                    <span className="small" title={v.updated_at}>
                      {ago(v.updated_at)}
                    </span>
                  ),
                },
              ]}
            />
          </section>
          <section aria-labelledby="detail-heading">
            <h2 id="detail-heading">{stat ? label(stat) : 'History'}</h2>
            {values.length > 0 ? (
              <StatPicker
                label="Statistic"
                stats={values.map((v) => ({ key: v.key, display_name: label(v.key) }))}
                value={stat ?? ''}
                onChange={setChosen}
              />
            ) : null}
            {canRemove && chosenValue ? (
              <p>
                <button
                  type="button"
                  className="danger"
                  aria-label={`Remove value ${label(chosenValue.key)}`}
                  onClick={() =>
                    setRemoving({
                      key: chosenValue.key,
                      label: label(chosenValue.key),
                      shown: formatStatValue(chosenValue.value, labels(chosenValue.key).unit),
                    })
                  }
                >
                  Remove value
                </button>
              </p>
            ) : null}
            {rank.data ? (
              <p>
                Rank <strong>{formatCount(rank.data.entry.rank)}</strong> of {formatCount(rank.data.total)} in{' '}
                {season?.name}.{' '}
                <Link
                  to={`/leaderboards?season=${encodeURIComponent(season?.slug ?? '')}&stat=${encodeURIComponent(stat ?? '')}${server === '' ? '' : `&server=${server}`}`}
                >
                  Open the leaderboard
                </Link>
              </p>
            ) : rank.isError ? (
              <p className="muted">Not ranked: the statistic is not public.</p>
            ) : (
              <p className="muted" aria-hidden="true">
                &nbsp;
              </p>
            )}
            <ErrorNotice error={history.error} title="History could not be loaded" />
            {history.isPending && stat ? (
              <Loading lines={5} />
            ) : points.length > 0 ? (
              <Chart
                title="Value over the last 30 days"
                kind="lines"
                labels={points.map((p) => dayFormat.format(new Date(p.at)))}
                unit={unit}
                series={[{ label: stat ? label(stat) : 'Value', tone: 's2', values: points.map((p) => p.value) }]}
                summary={`${stat ? label(stat) : 'The value'} went from ${spoken(points[0]!.value)} to ${spoken(points.at(-1)!.value)} over the last 30 days.`}
              />
            ) : stat ? (
              <Empty>No change recorded in the last 30 days.</Empty>
            ) : null}
          </section>
        </div>
      ) : null}
      <RemoveValueDialog
        player={subject}
        season={season}
        server={onServer}
        networked={servers.length > 1}
        value={removing}
        onClose={() => setRemoving(null)}
        onDone={(message) => {
          setRemoving(null);
          setChosen(null);
          setDone(message);
        }}
      />
      <ResetSeasonDialog
        player={subject}
        season={season}
        server={onServer}
        listed={values.length}
        open={resetting}
        onClose={() => setResetting(false)}
        onDone={(message) => {
          setResetting(false);
          setDone(message);
        }}
      />
      <ErasePlayerDialog
        player={subject}
        season={season}
        listed={values.length}
        open={erasing}
        onClose={() => setErasing(false)}
        onDone={() => navigate('/players', { state: { erased: name } })}
      />
      <UnblockDialog uuid={unblocking} name={name} onClose={() => setUnblocking(null)} />
    </>
  );
}
