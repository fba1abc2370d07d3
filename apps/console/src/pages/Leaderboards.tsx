import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { api, ok } from '../api.ts';
import { useSeasons, useStatDefinitions } from '../queries.ts';
import { DataTable } from '../ui/data-table.tsx';
import { SelectField } from '../ui/form.tsx';
import { ServerPicker } from '../ui/server-picker.tsx';
import { StatPicker, TIME_PLAYED } from '../ui/stat-picker.tsx';
import { StatValue } from '../ui/stat-value.tsx';
import { ErrorNotice, formatCount, PageHeader, Pager, When } from '../ui/ui.tsx';

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
  const server = params.get('server') ?? '';
  const board = useQuery({
    queryKey: ['leaderboard', season, stat, page, server],
    enabled: season !== '' && stat !== '',
    queryFn: () =>
      ok(
        api.GET('/api/v1/admin/leaderboards', {
          params: {
            query: {
              season,
              stat,
              limit: PER_PAGE,
              offset: (page - 1) * PER_PAGE,
              ...(server === '' ? {} : { server }),
            },
          },
        }),
      ),
    placeholderData: (previous) => previous,
  });
  const set = (next: Record<string, string>) =>
    setParams({ season, stat, page: '1', ...(server === '' ? {} : { server }), ...next });
  const entries = board.data?.entries ?? [];
  return (
    <>
      <PageHeader
        title="Leaderboards"
        description="Public statistics ranked as websites see them: public players only, ties share a rank."
      />
      <div className="filters">
        <SelectField
          label="Season"
          value={season}
          onChange={(v) => set({ season: v })}
          options={(seasons.data?.data ?? []).map((s) => ({
            value: s.slug,
            label: `${s.name}${s.active ? ' (active)' : ''}`,
          }))}
        />
        <StatPicker label="Statistic" stats={publicStats} value={stat} onChange={(key) => set({ stat: key })} />
        <ServerPicker value={server} onChange={(id) => set({ server: id })} />
      </div>
      <ErrorNotice error={seasons.error ?? stats.error ?? board.error} />
      <DataTable
        caption={`${definition?.display_name ?? stat} in ${season}, page ${page}`}
        rows={entries}
        loading={seasons.isPending || stats.isPending || (board.isPending && board.fetchStatus !== 'idle')}
        empty={
          publicStats.length === 0
            ? 'No public statistics yet: make one public on the Statistics page.'
            : page > 1
              ? 'No entries on this page.'
              : 'Nobody has a value for this statistic in this season yet.'
        }
        rowKey={(e) => e.player.uuid}
        rowName={(e) => e.player.username}
        columns={[
          { label: 'Rank', numeric: true, width: 4, cell: (e) => formatCount(e.rank) },
          {
            label: 'Player',
            rowHeader: true,
            cell: (e) => <Link to={`/players/${e.player.uuid}`}>{e.player.username}</Link>,
          },
          { label: 'Value', numeric: true, width: 7, cell: (e) => <StatValue value={e.value} unit={unit} /> },
          { label: 'Updated', width: 9, cell: (e) => <When at={e.updated_at} /> },
        ]}
      />
      <Pager
        page={page}
        perPage={PER_PAGE}
        hasMore={entries.length === PER_PAGE && page * PER_PAGE < 10_000}
        onPage={(p) => set({ page: String(p) })}
        label="Leaderboard"
      />
    </>
  );
}
