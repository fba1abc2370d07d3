import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { api, ok } from '../api.ts';
import { useSeasons, useStatDefinitions } from '../queries.ts';
import { StatPicker, TIME_PLAYED } from '../ui/stat-picker.tsx';
import { StatValue } from '../ui/stat-value.tsx';
import { Empty, ErrorNotice, Loading, PageHeader, When } from '../ui/ui.tsx';

const PER_PAGE = 25;

export function Leaderboards() {
  const [params, setParams] = useSearchParams();
  const seasons = useSeasons();
  const stats = useStatDefinitions();
  const publicStats = (stats.data?.data ?? [])
    .filter((d) => d.public)
    .sort((a, b) => a.display_name.localeCompare(b.display_name));
  const season =
    params.get('season') ?? seasons.data?.data.find((s) => s.active)?.slug ?? seasons.data?.data[0]?.slug ?? '';
  const stat = params.get('stat') ?? (publicStats.find((d) => d.key === TIME_PLAYED) ?? publicStats[0])?.key ?? '';
  const definition = publicStats.find((d) => d.key === stat);
  const unit = definition?.unit ?? 'count';
  const page = Math.max(1, Number(params.get('page') ?? 1) || 1);
  const board = useQuery({
    queryKey: ['leaderboard', season, stat, page],
    enabled: season !== '' && stat !== '',
    queryFn: () =>
      ok(
        api.GET('/api/v1/admin/leaderboards', {
          params: { query: { season, stat, limit: PER_PAGE, offset: (page - 1) * PER_PAGE } },
        }),
      ),
    placeholderData: (previous) => previous,
  });
  const set = (next: Record<string, string>) => setParams({ season, stat, page: '1', ...next });
  const entries = board.data?.entries ?? [];
  return (
    <>
      <PageHeader
        title="Leaderboards"
        description="Public statistics ranked as websites see them: public players only, ties share a rank."
      />
      <div className="filters">
        <label>
          Season
          <select value={season} onChange={(e) => set({ season: e.target.value })}>
            {seasons.data?.data.map((s) => (
              <option key={s.id} value={s.slug}>
                {s.name}
                {s.active ? ' (active)' : ''}
              </option>
            ))}
          </select>
        </label>
        <StatPicker label="Statistic" stats={publicStats} value={stat} onChange={(key) => set({ stat: key })} />
      </div>
      <ErrorNotice error={seasons.error ?? stats.error ?? board.error} />
      {seasons.isPending || stats.isPending || (board.isPending && board.fetchStatus !== 'idle') ? (
        <Loading lines={8} />
      ) : publicStats.length === 0 ? (
        <Empty>No public statistics yet: make one public on the Statistics page.</Empty>
      ) : entries.length === 0 ? (
        <Empty>
          {page > 1 ? 'No entries on this page.' : 'Nobody has a value for this statistic in this season yet.'}
        </Empty>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">
              {definition?.display_name ?? stat} in {season}, page {page}
            </caption>
            <thead>
              <tr>
                <th scope="col" className="num">
                  Rank
                </th>
                <th scope="col">Player</th>
                <th scope="col" className="num">
                  Value
                </th>
                <th scope="col">Updated</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.player.uuid}>
                  <td className="num">{e.rank.toLocaleString()}</td>
                  <th scope="row">
                    <Link to={`/players/${e.player.uuid}`}>{e.player.username}</Link>
                  </th>
                  <td className="num">
                    <StatValue value={e.value} unit={unit} />
                  </td>
                  <td>
                    <When at={e.updated_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav className="pager" aria-label="Leaderboard pages">
        <button type="button" disabled={page <= 1} onClick={() => set({ page: String(page - 1) })}>
          Previous page
        </button>
        <span aria-live="polite">Page {page}</span>
        <button
          type="button"
          disabled={entries.length < PER_PAGE || page * PER_PAGE >= 10_000}
          onClick={() => set({ page: String(page + 1) })}
        >
          Next page
        </button>
      </nav>
    </>
  );
}
