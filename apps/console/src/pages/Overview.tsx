import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, ok } from '../api.ts';
import { useOnline } from '../queries.ts';
import { Chart } from '../ui/charts.tsx';
import { ago, Empty, ErrorNotice, Loading, PageHeader, When } from '../ui/ui.tsx';

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
          <Chart
            title="Uploads"
            kind="bars"
            labels={labels}
            series={[
              { label: 'Accepted', tone: 's1', values: buckets.map((b) => b.batches_accepted) },
              { label: 'Rejected', tone: 's3', values: buckets.map((b) => b.batches_rejected) },
            ]}
            summary={`Uploads per ${range === 'day' ? 'hour' : 'day'}, ${period}: ${sum('batches_accepted').toLocaleString()} accepted and ${sum('batches_rejected').toLocaleString()} rejected.`}
          />
          <Chart
            title="Players"
            kind="lines"
            labels={labels}
            series={[
              { label: 'Active', tone: 's2', values: buckets.map((b) => b.active_players) },
              { label: 'New', tone: 's4', values: buckets.map((b) => b.new_players) },
            ]}
            summary={`Active and new players per ${range === 'day' ? 'hour' : 'day'}, ${period}: ${sum('new_players').toLocaleString()} new players.`}
          />
        </div>
      ) : null}
      <section aria-labelledby="rejections-heading">
        <h2 id="rejections-heading">Recent rejections</h2>
        <p className="muted">
          Uploads the service refused in the last 7 days, grouped by reason, key, server and player. Each says how to
          fix it.
        </p>
        <ErrorNotice error={rejections.error} title="Rejections could not be loaded" />
        {rejections.isPending ? (
          <Loading lines={3} />
        ) : rejections.data && rejections.data.data.length === 0 ? (
          <Empty>No rejected uploads in the last 7 days.</Empty>
        ) : (
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Reason</th>
                  <th scope="col">Server</th>
                  <th scope="col">Key</th>
                  <th scope="col" className="num">
                    Times
                  </th>
                  <th scope="col">Last</th>
                  <th scope="col">Fix</th>
                </tr>
              </thead>
              <tbody>
                {rejections.data?.data.map((r) => {
                  const fix = fixFor(r);
                  return (
                    <tr
                      key={`${r.code}|${r.key?.id}|${r.server?.hostname}|${r.server?.port}|${r.player_uuid}|${r.last_at}`}
                    >
                      <td>
                        <code>{r.code}</code> {r.message}
                      </td>
                      <td>{r.server ? `${r.server.hostname}:${r.server.port}` : <span className="muted">—</span>}</td>
                      <td>{r.key ? r.key.name : <span className="muted">unknown</span>}</td>
                      <td className="num">{r.count.toLocaleString()}</td>
                      <td>
                        <span title={r.last_at}>{ago(r.last_at)}</span>
                      </td>
                      <td>{fix ? <Link to={fix.to}>{fix.text}</Link> : <span className="muted">—</span>}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
        {rejections.data && rejections.data.meta.total > 10 ? (
          <p className="small muted">
            Showing the 10 latest of {rejections.data.meta.total.toLocaleString()}; first seen{' '}
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
      <span className="tile-value">{value === null ? '—' : value.toLocaleString()}</span>
      <span className="tile-label">{label}</span>
    </>
  );
  return <div className={`tile${tone && value ? ` ${tone}` : ''}`}>{to ? <Link to={to}>{body}</Link> : body}</div>;
}
