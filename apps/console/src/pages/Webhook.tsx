import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, ok } from '../api.ts';
import { useCan } from '../app/session.tsx';
import { useWebhooks } from '../queries.ts';
import { DataTable } from '../ui/data-table.tsx';
import {
  Badge,
  ConfirmDialog,
  Dialog,
  dateTime,
  ErrorNotice,
  formatCount,
  PageHeader,
  Pager,
  Restricted,
  When,
} from '../ui/ui.tsx';
import { type Webhook as Hook, hookName, SecretDialog, WebhookForm } from './Webhooks.tsx';

const PER_PAGE = 20;

export function Webhook() {
  const { id = '' } = useParams();
  const canEdit = useCan()('write:config');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [secret, setSecret] = useState<{ hook: Hook; secret: string } | null>(null);
  const hooks = useWebhooks(canEdit);
  const hook = hooks.data?.data.find((h) => h.id === id) ?? null;
  const deliveries = useQuery({
    queryKey: ['deliveries', id, page],
    enabled: canEdit,
    queryFn: () =>
      ok(
        api.GET('/api/v1/admin/webhooks/{webhook}/deliveries', {
          params: { path: { webhook: id }, query: { page, per_page: PER_PAGE } },
        }),
      ),
    refetchInterval: 5_000,
  });
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['webhooks'] }),
      queryClient.invalidateQueries({ queryKey: ['deliveries', id] }),
    ]);
  const test = useMutation({
    mutationFn: () => ok(api.POST('/api/v1/admin/webhooks/{webhook}/test', { params: { path: { webhook: id } } })),
    onSuccess: () => void refresh(),
  });
  const rotate = useMutation({
    mutationFn: () =>
      ok(api.POST('/api/v1/admin/webhooks/{webhook}/rotate-secret', { params: { path: { webhook: id } } })),
    onSuccess: (r) => {
      setSecret({ hook: r.data, secret: r.secret });
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (hook: string) =>
      ok(api.DELETE('/api/v1/admin/webhooks/{webhook}', { params: { path: { webhook: hook } } })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['webhooks'] });
      navigate('/webhooks');
    },
  });
  if (!canEdit) return <Restricted title="Webhook">Only admins and owners see webhooks.</Restricted>;
  return (
    <>
      <PageHeader
        title={hook ? hookName(hook) : 'Webhook'}
        description={
          <>
            {hook ? <code>{hook.url}</code> : null} · <Link to="/webhooks">All webhooks</Link>
          </>
        }
        actions={
          hook ? (
            <>
              <button type="button" onClick={() => test.mutate()} disabled={test.isPending || !hook.enabled}>
                {test.isPending ? 'Sending…' : 'Send test event'}
              </button>
              <button type="button" onClick={() => setEditing(true)}>
                Edit
              </button>
              <button type="button" onClick={() => rotate.mutate()} disabled={rotate.isPending}>
                Rotate secret
              </button>
              <button type="button" className="danger" onClick={() => setDeleting(true)}>
                Delete
              </button>
            </>
          ) : null
        }
      />
      <ErrorNotice error={hooks.error ?? test.error ?? rotate.error} />
      {test.isSuccess ? (
        <p className="notice" role="status">
          A <code>webhook.test</code> event was queued; it appears below when sent.
        </p>
      ) : null}
      {hook && !hook.enabled ? <p className="notice warn">This webhook is disabled: nothing is sent to it.</p> : null}
      <h2>Deliveries</h2>
      <DataTable
        caption="Deliveries"
        query={deliveries}
        empty="Nothing sent yet. Send a test event to check the receiver."
        rowName={(d) => `${d.type} of ${dateTime(d.created_at)}`}
        columns={[
          { label: 'Event', rowHeader: true, width: 12, cell: (d) => <code>{d.type}</code> },
          {
            label: 'Status',
            width: 6,
            cell: (d) => (
              <Badge tone={d.status === 'delivered' ? 'good' : d.status === 'failed' ? 'bad' : 'warn'}>
                {d.status}
              </Badge>
            ),
          },
          { label: 'Created', width: 9, cell: (d) => <When at={d.created_at} /> },
          { label: 'Attempts', numeric: true, cell: (d) => formatCount(d.attempts.length) },
          { label: 'Next attempt', width: 9, cell: (d) => <When at={d.next_attempt_at} never="—" /> },
        ]}
        details={{
          show: 'Details',
          hide: 'Hide details',
          content: (d) => (
            <>
              <h3 className="small">Attempts</h3>
              {d.attempts.length === 0 ? (
                <p className="muted">Not tried yet.</p>
              ) : (
                <ol>
                  {d.attempts.map((a) => (
                    <li key={a.attempt}>
                      <When at={a.started_at} /> · {a.duration_ms} ms ·{' '}
                      {a.status_code !== null ? `answered ${a.status_code}` : (a.error ?? 'no answer')}
                    </li>
                  ))}
                </ol>
              )}
              <h3 className="small">Body sent</h3>
              <pre className="code">{JSON.stringify(d.payload, null, 2)}</pre>
            </>
          ),
        }}
      />
      {deliveries.data ? (
        <Pager page={page} perPage={PER_PAGE} total={deliveries.data.meta.total} onPage={setPage} label="Deliveries" />
      ) : null}
      <Dialog title="Edit webhook" open={editing && hook !== null} onClose={() => setEditing(false)} wide>
        {editing && hook ? <WebhookForm existing={hook} onSaved={() => setEditing(false)} /> : null}
      </Dialog>
      <ConfirmDialog
        title="Delete this webhook?"
        subject={deleting ? id : null}
        mutation={remove}
        onClose={() => setDeleting(false)}
        confirmLabel="Delete webhook"
        danger
      >
        <p>Nothing more is sent to it; its deliveries waiting and its history are deleted with it.</p>
      </ConfirmDialog>
      <SecretDialog value={secret} onClose={() => setSecret(null)} />
    </>
  );
}
