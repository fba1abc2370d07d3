import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, ok } from '../api.ts';
import { useOnline } from '../queries.ts';
import { Chart, type Series } from '../ui/charts.tsx';
import { DataTable } from '../ui/data-table.tsx';
import { ago, Breakable, ErrorNotice, formatCount, Loading, PageHeader, When } from '../ui/ui.tsx';
import { SetupChecklist } from './overview/setup-checklist.tsx';

type Rejection = NonNullable<Awaited<ReturnType<typeof loadRejections>>>['data'][number];

function loadRejections() {
  return ok(api.GET('/api/v1/admin/ingest/rejections', { params: { query: { page: 1, per_page: 10 } } }));
}

/** What to do about a rejected upload, from its code and message: a link to the page that fixes it. */
function fixFor(r: Rejection): { text: string; to: string } | null {
  if (r.code === 'NOT_FOUND' && r.server && /server/i.test(r.message)) {
    return {
      text: `Register ${r.server.hostname}:${r.server.port}`,
      to: `/servers?new=${encodeURIComponent(`${r.server.hostname}:${r.server.port}`)}`,
    };
  }
  if (r.code === 'NOT_FOUND' && /season/i.test(r.message)) return { text: 'Activate a season', to: '/seasons' };
  if ((r.code === 'FORBIDDEN' || r.code === 'INSUFFICIENT_SCOPE') && r.key) {
    return { text: `Edit the key “${r.key.name}”`, to: `/keys?edit=${r.key.id}` };
  }
  if (r.code === 'INVALID_API_KEY') return { text: 'Create a client key for the mod', to: '/keys?new=client' };
  // More kinds of bad uploads from one key in a day than a mod misconfigured once sends: a leaked or misused key.
  if (r.code === 'OVERFLOW' && r.key) return { text: `Review the key “${r.key.name}”`, to: `/keys?edit=${r.key.id}` };
  // One client key uploading for more than 100 players an hour: shared or leaked (restrict it, or use the agent).
  if (r.code === 'SHARED_KEY' && r.key) {
    return { text: `Restrict or rotate the key “${r.key.name}”`, to: `/keys?edit=${r.key.id}` };
  }
  if (r.code === 'STAT_LIMIT') return { text: 'See the statistics', to: '/stats' };
  return null;
}

const hourFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const dayFormat = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });

export function Overview() {
  const [range, setRange] = useState<'day' | 'month'>('day');
  const activity = useQuery({
    queryKey: ['activity', range],
    queryFn: () =>
      ok(
        api.GET('/api/v1/admin/activity', {
          params: {
            query:
              range === 'day'
                ? { interval: 'hour' }
                : { interval: 'day', from: new Date(Date.now() - 29 * 86_400_000).toISOString() },
          },
        }),
      ),
    refetchInterval: 60_000,
  });
  const online = useOnline();
  const rejections = useQuery({ queryKey: ['rejections', 1], queryFn: loadRejections, refetchInterval: 60_000 });

  const buckets = activity.data?.data ?? [];
  const labels = buckets.map((b) => (range === 'day' ? hourFormat : dayFormat).format(new Date(b.at)));
  const sum = (k: 'batches_accepted' | 'batches_rejected' | 'new_players') => buckets.reduce((s, b) => s + b[k], 0);
  const period = range === 'day' ? 'last 24 hours' : 'last 30 days';
  const per = `per ${range === 'day' ? 'hour' : 'day'}, ${period}`;
  const series = (label: string, tone: Series['tone'], k: keyof Omit<(typeof buckets)[number], 'at'>) => ({
    label,
    tone,
    values: buckets.map((b) => b[k]),
  });
  const charts = [
    {
      title: 'Uploads',
      kind: 'bars' as const,
      series: [series('Accepted', 's1', 'batches_accepted'), series('Rejected', 's3', 'batches_rejected')],
      summary: `Uploads ${per}: ${formatCount(sum('batches_accepted'))} accepted and ${formatCount(sum('batches_rejected'))} rejected.`,
    },
    {
      title: 'Players',
      kind: 'lines' as const,
      series: [series('Active', 's2', 'active_players'), series('New', 's4', 'new_players')],
      summary: `Active and new players ${per}: ${formatCount(sum('new_players'))} new players.`,
    },
  ];

  return (
    <>
      <PageHeader
        title="Overview"
        description="Uploads from your servers, players, and what needs your attention."
        actions={
          <fieldset className="segmented">
            <legend className="visually-hidden">Period</legend>
            <label>
              <input type="radio" name="range" checked={range === 'day'} onChange={() => setRange('day')} /> 24 hours
            </label>
            <label>
              <input type="radio" name="range" checked={range === 'month'} onChange={() => setRange('month')} /> 30 days
            </label>
          </fieldset>
        }
      />
      <SetupChecklist rejected={(rejections.data?.data.length ?? 0) > 0} />
      <section aria-labelledby="totals" className="tiles">
        <h2 id="totals" className="visually-hidden">
          Totals, {period}
        </h2>
        <Tile label="Online now" value={online.data ? online.data.data.length : null} to="/online" />
        <Tile label={`Uploads accepted, ${period}`} value={activity.data ? sum('batches_accepted') : null} />
        <Tile label={`Uploads rejected, ${period}`} value={activity.data ? sum('batches_rejected') : null} tone="bad" />
        <Tile label={`New players, ${period}`} value={activity.data ? sum('new_players') : null} to="/players" />
      </section>
      <ErrorNotice error={activity.error} title="Activity could not be loaded" />
      {activity.isPending ? (
        <Loading lines={8} />
      ) : activity.data ? (
        <div className="charts">
          {charts.map((c) => (
            <Chart key={c.title} labels={labels} {...c} />
          ))}
        </div>
      ) : null}
      <section aria-labelledby="rejections-heading">
        <h2 id="rejections-heading">Recent rejections</h2>
        <p className="muted">
          Uploads the service refused in the last 7 days, grouped by reason, key, server and player. Each says how to
          fix it.
        </p>
        <DataTable
          caption="Rejected uploads, latest first"
          query={rejections}
          errorTitle="Rejections could not be loaded"
          empty="No rejected uploads in the last 7 days."
          rowKey={(r) => `${r.code}|${r.key?.id}|${r.server?.hostname}|${r.server?.port}|${r.player_uuid}|${r.last_at}`}
          rowName={(r) => r.message}
          columns={[
            {
              label: 'Reason',
              rowHeader: true,
              width: 14,
              cell: (r) => <Breakable text={r.message} />,
              detail: (r) => <code>{r.code}</code>,
            },
            {
              label: 'Server',
              width: 13,
              cell: (r) =>
                r.server ? (
                  <Breakable text={`${r.server.hostname}:${r.server.port}`} />
                ) : (
                  <span className="muted">—</span>
                ),
            },
            { label: 'Key', width: 8, cell: (r) => (r.key ? r.key.name : <span className="muted">unknown</span>) },
            { label: 'Times', numeric: true, width: 5, cell: (r) => formatCount(r.count) },
            { label: 'Last', width: 6, cell: (r) => <span title={r.last_at}>{ago(r.last_at)}</span> },
            {
              label: 'Fix',
              width: 13,
              cell: (r) => {
                const fix = fixFor(r);
                return fix ? (
                  <Link to={fix.to}>
                    <Breakable text={fix.text} />
                  </Link>
                ) : (
                  <span className="muted">—</span>
                );
              },
            },
          ]}
        />
        {rejections.data && rejections.data.meta.total > 10 ? (
          <p className="small muted">
            Showing the 10 latest of {formatCount(rejections.data.meta.total)}; first seen{' '}
            <When at={rejections.data.data.at(-1)?.first_at} />.
          </p>
        ) : null}
      </section>
    </>
  );
}

function Tile({ label, value, to, tone }: { label: string; value: number | null; to?: string; tone?: 'bad' }) {
  const body = (
    <>
      <span className="tile-value">{value === null ? '—' : formatCount(value)}</span>
      <span className="tile-label">{label}</span>
    </>
  );
  return <div className={`tile${tone && value ? ` ${tone}` : ''}`}>{to ? <Link to={to}>{body}</Link> : body}</div>;
}
