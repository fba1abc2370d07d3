import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok, type Schemas } from '../api.ts';
import { useCan } from '../app/session.tsx';
import { useUsers } from '../queries.ts';
import { DataTable } from '../ui/data-table.tsx';
import { SelectField, TextField } from '../ui/form.tsx';
import { PageHeader, Pager, Restricted, saveFile, When } from '../ui/ui.tsx';

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
  'SEASON_UPDATED',
  'SEASON_ACTIVATED',
  'SEASON_ENDED',
  'PLAYER_UPDATED',
  'PLAYER_STATS_REMOVED',
  'PLAYER_ERASED',
  'PLAYER_UNBLOCKED',
  'STAT_UPDATED',
  'STATS_IMPORTED',
  'USER_ROLE_UPDATED',
  'WEBHOOK_CREATED',
  'WEBHOOK_UPDATED',
  'WEBHOOK_DELETED',
  'WEBHOOK_SECRET_ROTATED',
  'REVIEW_APPROVED',
  'REVIEW_REJECTED',
  'WORKSPACE_BOOTSTRAPPED',
  'WORKSPACE_OWNER_BOOTSTRAPPED',
  'WORKSPACE_CREATED',
  'BOOTSTRAP_TOKEN_CREATED',
  'PUBLIC_SITE_UPDATED',
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
  if (!allowed) return <Restricted title="Audit log">Only admins and owners read the audit log.</Restricted>;
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
        <SelectField
          label="Action"
          value={filters.action}
          onChange={(action) => set({ action })}
          options={[{ value: '', label: 'Every action' }, ...ACTIONS.map((a) => ({ value: a, label: actionWords(a) }))]}
        />
        <SelectField
          label="Actor"
          value={filters.actor}
          onChange={(actor) => set({ actor })}
          options={[
            { value: '', label: 'Anyone' },
            { value: 'cli', label: 'The CLI' },
            ...(users.data?.data ?? []).map((u) => ({ value: u.id, label: u.display_name })),
          ]}
        />
        <TextField label="From" type="date" value={filters.from} onChange={(from) => set({ from })} />
        <TextField label="To" type="date" value={filters.to} onChange={(to) => set({ to })} />
      </fieldset>
      <DataTable
        caption="Audit records, newest first"
        query={log}
        error={exportCsv.error}
        empty="No record matches."
        rowName={(r) => r.summary}
        columns={[
          { label: 'When', width: 9, cell: (r) => <When at={r.created_at} /> },
          {
            label: 'What',
            rowHeader: true,
            width: 16,
            cell: (r) => <Summary record={r} />,
            detail: (r) => <code>{r.action}</code>,
          },
          {
            label: 'Who',
            width: 8,
            cell: (r) => r.actor.display_name ?? r.actor.label ?? <span className="muted">—</span>,
          },
        ]}
        details={{ show: 'Show changes', hide: 'Hide changes', content: (r) => <Diff record={r} /> }}
      />
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

/** "API_KEY_CREATED" → "API key created": the filter's words for an action (its value stays the raw action). */
function actionWords(action: string): string {
  const words = action.toLowerCase().split('_').join(' ').replace(/^api /, 'API ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The record's sentence, the target's name in it set in bold. */
function Summary({ record }: { record: AuditRecord }) {
  const name = record.target_name;
  const at = name ? record.summary.indexOf(name) : -1;
  if (!name || at < 0) return <span className="summary">{record.summary}</span>;
  return (
    <span className="summary">
      {record.summary.slice(0, at)}
      <strong>{name}</strong>
      {record.summary.slice(at + name.length)}
    </span>
  );
}

/** Before and after, field by field: removed, added and changed fields marked (not by colour alone). */
function Diff({ record }: { record: AuditRecord }) {
  const b = flatten(record.before);
  const a = flatten(record.after);
  const fields = [...new Set([...b.keys(), ...a.keys()])].sort();
  return (
    <div className="diff">
      <p className="small muted">
        {record.target_id ? (
          <>
            {`${record.target_type.replace(/_/g, ' ')} `}
            <code>{record.target_id}</code>
            {' · '}
          </>
        ) : null}
        {record.ip ? `From ${record.ip}` : 'No address (the CLI)'}
        {record.request_id ? (
          <>
            {' · request '}
            <code>{record.request_id}</code>
          </>
        ) : null}
      </p>
      <DataTable
        caption={`Changes: ${record.summary}`}
        rows={fields.map((f) => {
          const before = b.get(f);
          const after = a.get(f);
          const kind =
            before === undefined ? 'added' : after === undefined ? 'removed' : after === before ? 'same' : 'changed';
          return { f, before, after, kind };
        })}
        empty="No fields recorded."
        rowKey={(d) => d.f}
        rowName={(d) => d.f}
        columns={[
          {
            label: 'Field',
            rowHeader: true,
            width: 10,
            cell: (d) => (
              <>
                <code>{d.f}</code>
                {d.kind === 'same' ? null : <span className={`small diff-${d.kind}`}> ({d.kind})</span>}
              </>
            ),
          },
          { label: 'Before', width: 10, cell: (d) => <span className="mono">{d.before ?? '—'}</span> },
          { label: 'After', width: 10, cell: (d) => <span className="mono">{d.after ?? '—'}</span> },
        ]}
      />
    </div>
  );
}
