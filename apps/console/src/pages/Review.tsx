import { formatStatValue } from '@statboard/sdk/format';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, ok, type Schemas } from '../api.ts';
import { ME_KEY, useCan } from '../app/session.tsx';
import { useStatLabels } from '../queries.ts';
import { ago, Badge, Empty, ErrorNotice, Loading, PageHeader, Pager } from '../ui/ui.tsx';

type Item = Schemas['ReviewItem'];
type Held = Item['items'][number];
type Status = Item['status'];

const PER_PAGE = 20;
const RULE_LABEL: Record<Held['rule'], string> = {
  rate: 'Rose too fast',
  above_verified: 'Above the verified value',
  first_sight: 'New player straight into the top 10',
  rename: 'Second new name within 30 days',
};

/** A span of time in words ("40 h", "4 min"): milliseconds as the game's ticks (20 a second). */
const span = (ms: number) => formatStatValue(Math.max(0, Math.round(ms / 50)), 'ticks');

/** Why a value was held, in one sentence a person can judge in seconds. */
export function evidence(
  h: Held,
  label: (key: string) => { name: string; unit: Parameters<typeof formatStatValue>[1] },
) {
  if (h.rule === 'rename') {
    const since = h.previous_at ? `; the name last changed ${ago(h.previous_at)}` : '';
    return `Wants the name ${h.value} instead of ${h.previous_value ?? 'the current one'}${since}`;
  }
  const { name, unit } = label(h.stat ?? '');
  const value = Number(h.value);
  if (h.rule === 'first_sight') {
    return `${name}: ${formatStatValue(value, unit)} at a first upload to this server, in the top 10 of the board`;
  }
  const previous = Number(h.previous_value ?? 0);
  const rise = formatStatValue(value - previous, unit);
  const allowed = h.allowed === null ? '' : `; at most ${formatStatValue(h.allowed - previous, unit)} allowed`;
  const hours = h.previous_at ? span(Date.parse(h.received_at) - Date.parse(h.previous_at)) : null;
  if (h.rule === 'above_verified') {
    return `${name} is ${rise} above the server's verified value${hours ? ` of ${hours} before` : ''}${allowed}`;
  }
  return `${name} rose ${rise}${hours ? ` in ${hours}` : ''}${allowed}`;
}

export function Review() {
  const canDecide = useCan()('write:config');
  const label = useStatLabels();
  const client = useQueryClient();
  const [status, setStatus] = useState<Status>('open');
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: ['review', status, page],
    queryFn: () => ok(api.GET('/api/v1/admin/review', { params: { query: { status, page, per_page: PER_PAGE } } })),
    refetchInterval: 60_000,
  });
  const decide = useMutation({
    mutationFn: ({ item, decision }: { item: Item; decision: 'approve' | 'reject' }) =>
      ok(
        decision === 'approve'
          ? api.POST('/api/v1/admin/review/{id}/approve', { params: { path: { id: item.id } } })
          : api.POST('/api/v1/admin/review/{id}/reject', { params: { path: { id: item.id } } }),
      ),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['review'] });
      void client.invalidateQueries({ queryKey: ME_KEY });
    },
  });
  const items = list.data?.data ?? [];
  return (
    <>
      <PageHeader
        title="Review"
        description="Values from players' machines that do not add up wait here instead of reaching the boards: approve to store them, reject to discard them. The uploads were answered as usual."
        actions={
          <label>
            Show{' '}
            <select
              value={status}
              onChange={(e) => {
                setStatus(e.target.value as Status);
                setPage(1);
              }}
            >
              <option value="open">Open</option>
              <option value="approved">Approved</option>
              <option value="rejected">Rejected</option>
            </select>
          </label>
        }
      />
      <ErrorNotice error={list.error ?? decide.error} />
      {list.isPending ? (
        <Loading />
      ) : items.length === 0 ? (
        <Empty>{status === 'open' ? 'Nothing waits for review.' : `No ${status} items.`}</Empty>
      ) : (
        <div className="cards">
          {items.map((item) => (
            <section key={item.id} className="card" aria-labelledby={`review-${item.id}`}>
              <h2 id={`review-${item.id}`}>
                <Link to={`/players/${item.player.uuid}`}>{item.player.username}</Link> on {item.server.name}{' '}
                {item.status === 'open' ? null : (
                  <Badge tone={item.status === 'approved' ? 'good' : 'bad'}>{item.status}</Badge>
                )}
              </h2>
              <p className="muted small">
                Held {ago(item.created_at)}, last {ago(item.updated_at)} · {item.uploads}{' '}
                {item.uploads === 1 ? 'upload' : 'uploads'}
                {item.key ? ` with the key “${item.key.name}”` : ''}
              </p>
              <ul className="plain">
                {item.items.map((h) => (
                  <li key={`${h.stat}-${h.rule}`}>
                    <Badge tone="warn">{RULE_LABEL[h.rule]}</Badge> {evidence(h, label)}
                  </li>
                ))}
              </ul>
              {canDecide && item.status === 'open' ? (
                <div className="actions">
                  <button
                    type="button"
                    className="primary"
                    disabled={decide.isPending}
                    onClick={() => decide.mutate({ item, decision: 'approve' })}
                  >
                    Approve {item.player.username}
                  </button>
                  <button
                    type="button"
                    disabled={decide.isPending}
                    onClick={() => decide.mutate({ item, decision: 'reject' })}
                  >
                    Reject {item.player.username}
                  </button>
                  {item.key ? <Link to={`/keys?edit=${item.key.id}`}>Edit the key “{item.key.name}”</Link> : null}
                </div>
              ) : null}
            </section>
          ))}
        </div>
      )}
      <Pager page={page} perPage={PER_PAGE} total={list.data?.meta.total} onPage={setPage} label="Review" />
    </>
  );
}
