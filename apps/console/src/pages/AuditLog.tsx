import { useMutation, useQuery } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { api, ok, type Schemas } from '../api.ts';
import { useCan } from '../app/session.tsx';
import { useUsers } from '../queries.ts';
import { Empty, ErrorNotice, Loading, PageHeader, Pager, saveFile, When } from '../ui/ui.tsx';

type AuditRecord = Schemas['AuditRecord'];

/** The actions the service records (the audit log's `action`). */
const ACTIONS = [
  'API_KEY_CREATED',
  'API_KEY_UPDATED',
  'API_KEY_ROTATED',
  'API_KEY_REVOKED',
  'SERVER_CREATED',
  'SERVER_UPDATED',
  'SEASON_CREATED',
  'SEASON_ACTIVATED',
  'PLAYER_UPDATED',
  'STAT_UPDATED',
  'STATS_IMPORTED',
  'USER_ROLE_UPDATED',
  'WEBHOOK_CREATED',
  'WEBHOOK_UPDATED',
  'WEBHOOK_DELETED',
  'WEBHOOK_SECRET_ROTATED',
  'WORKSPACE_BOOTSTRAPPED',
  'WORKSPACE_OWNER_BOOTSTRAPPED',
  'WORKSPACE_CREATED',
  'BOOTSTRAP_TOKEN_CREATED',
];

const PER_PAGE = 25;

interface Filters {
  action: string;
  actor: string;
  from: string;
  to: string;
}

function query(f: Filters) {
  return {
    ...(f.action ? { action: f.action } : {}),
    ...(f.actor ? { actor: f.actor } : {}),
    ...(f.from ? { from: new Date(`${f.from}T00:00:00`).toISOString() } : {}),
    // The whole "to" day is included.
    ...(f.to ? { to: new Date(new Date(`${f.to}T00:00:00`).getTime() + 86_400_000).toISOString() } : {}),
  };
}

export function AuditLog() {
  const allowed = useCan()('read:users');
  const [filters, setFilters] = useState<Filters>({ action: '', actor: '', from: '', to: '' });
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<string | null>(null);
  const users = useUsers(allowed);
  const log = useQuery({
    queryKey: ['audit', filters, page],
    enabled: allowed,
    queryFn: () =>
      ok(api.GET('/api/v1/admin/audit-log', { params: { query: { ...query(filters), page, per_page: PER_PAGE } } })),
    placeholderData: (previous) => previous,
  });
  const exportCsv = useMutation({
    mutationFn: async () => {
      const { data, response } = await api.GET('/api/v1/admin/audit-log/export', {
        params: { query: query(filters) },
        parseAs: 'blob',
      });
      const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'audit-log.csv';
      saveFile(data as Blob, name);
    },
  });
  const set = (next: Partial<Filters>) => {
    setFilters((f) => ({ ...f, ...next }));
    setPage(1);
  };
  if (!allowed) {
    return (
      <>
        <PageHeader title="Audit log" />
        <p className="notice">Only admins and owners read the audit log.</p>
      </>
    );
  }
  const records = log.data?.data ?? [];
  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every change made in the console, over the API or with the CLI: who, when, from where, and what it was before and after. Records cannot be changed or deleted."
        actions={
          <button type="button" onClick={() => exportCsv.mutate()} disabled={exportCsv.isPending}>
            {exportCsv.isPending ? 'Exporting…' : 'Export CSV'}
          </button>
        }
      />
      <fieldset className="filters">
        <legend className="visually-hidden">Filters</legend>
        <label>
          Action
          <select value={filters.action} onChange={(e) => set({ action: e.target.value })}>
            <option value="">Every action</option>
            {ACTIONS.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </label>
        <label>
          Actor
          <select value={filters.actor} onChange={(e) => set({ actor: e.target.value })}>
            <option value="">Anyone</option>
            <option value="cli">The CLI</option>
            {users.data?.data.map((u) => (
              <option key={u.id} value={u.id}>
                {u.display_name}
              </option>
            ))}
          </select>
        </label>
        <label>
          From
          <input type="date" value={filters.from} onChange={(e) => set({ from: e.target.value })} />
        </label>
        <label>
          To
          <input type="date" value={filters.to} onChange={(e) => set({ to: e.target.value })} />
        </label>
      </fieldset>
      <ErrorNotice error={log.error ?? exportCsv.error} />
      {log.isPending ? (
        <Loading lines={8} />
      ) : records.length === 0 ? (
        <Empty>No record matches.</Empty>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Action</th>
                <th scope="col">Actor</th>
                <th scope="col">Target</th>
                <th scope="col">
                  <span className="visually-hidden">Details</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {records.map((r) => (
                <Fragment key={r.id}>
                  <tr>
                    <td>
                      <When at={r.created_at} />
                    </td>
                    <td>
                      <code>{r.action}</code>
                    </td>
                    <td>{r.actor.display_name ?? r.actor.label ?? <span className="muted">—</span>}</td>
                    <td>
                      {r.target_type}
                      {r.target_id ? <div className="small muted mono">{r.target_id}</div> : null}
                    </td>
                    <td>
                      <button
                        type="button"
                        aria-expanded={open === r.id}
                        aria-controls={`diff-${r.id}`}
                        onClick={() => setOpen(open === r.id ? null : r.id)}
                      >
                        {open === r.id ? 'Hide changes' : 'Show changes'}
                      </button>
                    </td>
                  </tr>
                  {open === r.id ? (
                    <tr id={`diff-${r.id}`}>
                      <td colSpan={5}>
                        <Diff record={r} />
                      </td>
                    </tr>
                  ) : null}
                </Fragment>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {log.data ? (
        <Pager page={page} perPage={PER_PAGE} total={log.data.meta.total} onPage={setPage} label="Audit log" />
      ) : null}
    </>
  );
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

function flatten(value: unknown, prefix = '', out = new Map<string, string>()): Map<string, string> {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value as Record<string, Json>)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else if (prefix !== '') {
    out.set(prefix, JSON.stringify(value));
  }
  return out;
}

/** Before and after, field by field: removed, added and changed fields marked (not by colour alone). */
function Diff({ record }: { record: AuditRecord }) {
  const before = flatten(record.before);
  const after = flatten(record.after);
  const fields = [...new Set([...before.keys(), ...after.keys()])].sort();
  return (
    <div className="diff">
      <p className="small muted">
        {record.ip ? `From ${record.ip}` : 'No address (the CLI)'}
        {record.request_id ? (
          <>
            {' · request '}
            <code>{record.request_id}</code>
          </>
        ) : null}
      </p>
      {fields.length === 0 ? (
        <p className="muted">No fields recorded.</p>
      ) : (
        <table>
          <caption className="visually-hidden">Changes of {record.action}</caption>
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Before</th>
              <th scope="col">After</th>
            </tr>
          </thead>
          <tbody>
            {fields.map((f) => {
              const b = before.get(f);
              const a = after.get(f);
              const kind = b === undefined ? 'added' : a === undefined ? 'removed' : a === b ? 'same' : 'changed';
              return (
                <tr key={f} className={`diff-${kind}`}>
                  <th scope="row">
                    <code>{f}</code>
                    {kind === 'same' ? null : <span className="small muted"> ({kind})</span>}
                  </th>
                  <td className="mono">{b ?? '—'}</td>
                  <td className="mono">{a ?? '—'}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </div>
  );
}
