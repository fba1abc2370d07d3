import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { api, ok, type Schemas } from '../api.ts';
import { useCan } from '../app/session.tsx';
import { useWebhooks } from '../queries.ts';
import { DialogForm, RevealSecretDialog } from '../ui/forms.tsx';
import { ago, Badge, Dialog, Empty, ErrorNotice, Loading, PageHeader } from '../ui/ui.tsx';

export type Webhook = Schemas['Webhook'];
export type WebhookEvent = Webhook['events'][number];

export const EVENTS: { type: WebhookEvent; help: string }[] = [
  { type: 'leaderboard.leader_changed', help: 'a new rank 1 of a public statistic in the active season' },
  { type: 'player.first_seen', help: 'a player uploads for the first time' },
  { type: 'season.activated', help: 'a season becomes the active one' },
  { type: 'api_key.revoked', help: 'a key is revoked' },
  { type: 'api_key.rotated', help: 'a key is replaced by a new one' },
];

export function Webhooks() {
  const canEdit = useCan()('write:config');
  const hooks = useWebhooks(canEdit);
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<{ hook: Webhook; secret: string } | null>(null);
  if (!canEdit) {
    return (
      <>
        <PageHeader title="Webhooks" />
        <p className="notice">Only admins and owners see webhooks: their URLs often carry a receiver's own token.</p>
      </>
    );
  }
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Tell a Discord bot or any HTTP receiver what happens: a record falling, a new player, a season starting. Every delivery is signed (Standard Webhooks) and retried for 24 hours."
        actions={
          <button type="button" className="primary" onClick={() => setCreating(true)}>
            Create webhook
          </button>
        }
      />
      <ErrorNotice error={hooks.error} />
      {hooks.isPending ? (
        <Loading />
      ) : hooks.data?.data.length === 0 ? (
        <Empty>No webhooks yet.</Empty>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Receiver</th>
                <th scope="col">Events</th>
                <th scope="col">Status</th>
                <th scope="col">Last delivery</th>
                <th scope="col" className="num">
                  Waiting
                </th>
              </tr>
            </thead>
            <tbody>
              {hooks.data?.data.map((h) => (
                <tr key={h.id}>
                  <th scope="row">
                    <Link to={`/webhooks/${h.id}`}>{h.description ?? new URL(h.url).host}</Link>
                    <div className="small muted mono">{h.url}</div>
                  </th>
                  <td className="small">{h.events.join(', ')}</td>
                  <td>{h.enabled ? <Badge tone="good">enabled</Badge> : <Badge tone="warn">disabled</Badge>}</td>
                  <td>
                    {h.last_delivery ? (
                      <>
                        {h.last_delivery.ok ? <Badge tone="good">ok</Badge> : <Badge tone="bad">failed</Badge>}{' '}
                        {ago(h.last_delivery.at)}
                        {h.last_delivery.ok ? null : (
                          <div className="small muted">
                            {h.last_delivery.error ?? `answered ${h.last_delivery.status_code}`}
                          </div>
                        )}
                      </>
                    ) : (
                      <span className="muted">none yet</span>
                    )}
                  </td>
                  <td className="num">{h.pending_deliveries.toLocaleString()}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Dialog title="Create a webhook" open={creating} onClose={() => setCreating(false)} wide>
        {creating ? (
          <WebhookForm
            onSaved={(hook, s) => {
              setCreating(false);
              if (s) setSecret({ hook, secret: s });
            }}
          />
        ) : null}
      </Dialog>
      <SecretDialog value={secret} onClose={() => setSecret(null)} />
    </>
  );
}

export function WebhookForm({
  existing,
  onSaved,
}: {
  existing?: Webhook;
  onSaved: (hook: Webhook, secret?: string) => void;
}) {
  const id = useId();
  const queryClient = useQueryClient();
  const [url, setUrl] = useState(existing?.url ?? '');
  const [description, setDescription] = useState(existing?.description ?? '');
  const [events, setEvents] = useState<WebhookEvent[]>(
    existing?.events.filter((e) => e !== 'webhook.test') ?? [
      'leaderboard.leader_changed',
      'player.first_seen',
      'season.activated',
    ],
  );
  const [enabled, setEnabled] = useState(existing?.enabled ?? true);
  const save = useMutation({
    mutationFn: async () => {
      const body = {
        url: url.trim(),
        events,
        description: description.trim() === '' ? null : description.trim(),
        enabled,
      };
      if (existing) {
        const r = await ok(
          api.PUT('/api/v1/admin/webhooks/{webhook}', { params: { path: { webhook: existing.id } }, body }),
        );
        return { hook: r.data, secret: undefined };
      }
      const r = await ok(api.POST('/api/v1/admin/webhooks', { body }));
      return { hook: r.data, secret: r.secret };
    },
    onSuccess: async ({ hook, secret }) => {
      await queryClient.invalidateQueries({ queryKey: ['webhooks'] });
      onSaved(hook, secret);
    },
  });
  return (
    <DialogForm
      onSubmit={() => save.mutate()}
      error={save.error}
      errorTitle="The webhook was not saved"
      pending={save.isPending}
      submitLabel={existing ? 'Save changes' : 'Create webhook'}
      submitDisabled={events.length === 0}
    >
      <label htmlFor={`${id}-url`}>Receiver URL</label>
      <input
        id={`${id}-url`}
        type="url"
        required
        maxLength={2048}
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        placeholder="https://relay.example.com/statboard"
        aria-describedby={`${id}-url-help`}
      />
      <p id={`${id}-url-help`} className="small muted">
        An http(s) address reachable from the service. Addresses inside your network are refused unless the service runs
        with <code>WEBHOOK_ALLOW_PRIVATE=1</code>.
      </p>
      <label htmlFor={`${id}-description`}>Description (optional)</label>
      <input
        id={`${id}-description`}
        maxLength={200}
        value={description}
        onChange={(e) => setDescription(e.target.value)}
        placeholder="Discord #records"
      />
      <fieldset>
        <legend>Events</legend>
        {EVENTS.map((ev) => (
          <label key={ev.type} className="choice">
            <input
              type="checkbox"
              checked={events.includes(ev.type)}
              onChange={() =>
                setEvents((list) => (list.includes(ev.type) ? list.filter((x) => x !== ev.type) : [...list, ev.type]))
              }
            />
            <span>
              <code>{ev.type}</code> <span className="small muted">{ev.help}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <label className="choice">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
        Enabled (a disabled webhook is sent nothing and stores nothing new)
      </label>
    </DialogForm>
  );
}

export function SecretDialog({
  value,
  onClose,
}: {
  value: { hook: Webhook; secret: string } | null;
  onClose: () => void;
}) {
  return (
    <RevealSecretDialog
      title="Signing secret"
      open={value !== null}
      label={`Secret of ${value?.hook.description ?? value?.hook.url ?? 'the webhook'}`}
      secret={value?.secret ?? ''}
      onClose={onClose}
    >
      <p className="small muted">
        Your receiver verifies <code>webhook-signature</code> with it, as any Standard Webhooks library does.
      </p>
    </RevealSecretDialog>
  );
}
