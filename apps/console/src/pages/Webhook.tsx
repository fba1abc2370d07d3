import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, ok } from '../api.ts';
import { useCan } from '../app/session.tsx';
import { useWebhooks } from '../queries.ts';
import { Badge, ConfirmDialog, Dialog, Empty, ErrorNotice, Loading, PageHeader, Pager, When } from '../ui/ui.tsx';
import { type Webhook as Hook, SecretDialog, WebhookForm } from './Webhooks.tsx';

const PER_PAGE = 20;

export function Webhook() {
  const { id = '' } = useParams();
  const canEdit = useCan()('write:config');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<string | null>(null);
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
    mutationFn: () => ok(api.DELETE('/api/v1/admin/webhooks/{webhook}', { params: { path: { webhook: id } } })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['webhooks'] });
      navigate('/webhooks');
    },
  });
  if (!canEdit) {
    return (
      <>
        <PageHeader title="Webhook" />
        <p className="notice">Only admins and owners see webhooks.</p>
      </>
    );
  }
  return (
    <>
      <PageHeader
        title={hook ? (hook.description ?? new URL(hook.url).host) : 'Webhook'}
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
      <ErrorNotice error={deliveries.error} />
      {deliveries.isPending ? (
        <Loading lines={6} />
      ) : deliveries.data?.data.length === 0 ? (
        <Empty>Nothing sent yet. Send a test event to check the receiver.</Empty>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
                <th scope="col" className="num">
                  Attempts
                </th>
                <th scope="col">Next attempt</th>
                <th scope="col">
                  <span className="visually-hidden">Details</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {deliveries.data?.data.map((d) => (
                <Fragment key={d.id}>
                  <tr>
                    <td>
                      <code>{d.type}</code>
                    </td>
                    <td>
                      <Badge tone={d.status === 'delivered' ? 'good' : d.status === 'failed' ? 'bad' : 'warn'}>
                        {d.status}
                      </Badge>
                    </td>
                    <td>
                      <When at={d.created_at} />
                    </td>
                    <td className="num">{d.attempts.length}</td>
                    <td>
                      <When at={d.next_attempt_at} never="—" />
                    </td>
                    <td>
                      <button
                        type="button"
                        aria-expanded={open === d.id}
                        aria-controls={`delivery-${d.id}`}
                        onClick={() => setOpen(open === d.id ? null : d.id)}
                      >
                        {open === d.id ? 'Hide' : 'Details'}
                      </button>
                    </td>
                  </tr>
                  {open === d.id ? (
                    <tr id={`delivery-${d.id}`}>
                      <td colSpan={6}>
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
                      </td>
                    </tr>
                  ) : null}
                </Fragment>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {deliveries.data ? (
        <Pager page={page} perPage={PER_PAGE} total={deliveries.data.meta.total} onPage={setPage} label="Deliveries" />
      ) : null}
      <Dialog title="Edit webhook" open={editing && hook !== null} onClose={() => setEditing(false)} wide>
        {editing && hook ? <WebhookForm existing={hook} onSaved={() => setEditing(false)} /> : null}
      </Dialog>
      <ConfirmDialog
        title="Delete this webhook?"
        open={deleting}
        danger
        confirmLabel="Delete webhook"
        busy={remove.isPending}
        error={remove.error}
        onCancel={() => {
          remove.reset();
          setDeleting(false);
        }}
        onConfirm={() => remove.mutate()}
      >
        <p>Nothing more is sent to it; its deliveries waiting and its history are deleted with it.</p>
      </ConfirmDialog>
      <SecretDialog value={secret} onClose={() => setSecret(null)} />
    </>
  );
}
