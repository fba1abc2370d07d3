import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, ok, type Schemas } from '../api.ts';
import { useCan } from '../app/session.tsx';
import { useWebhooks } from '../queries.ts';
import { DataTable } from '../ui/data-table.tsx';
import { Checkboxes, Choice, Form, TextField } from '../ui/form.tsx';
import { RevealSecretDialog } from '../ui/reveal-secret.tsx';
import { ago, Badge, Breakable, Dialog, EnabledBadge, formatCount, PageHeader, Restricted } from '../ui/ui.tsx';

export type Webhook = Schemas['Webhook'];
export type WebhookEvent = Webhook['events'][number];

/** What each event means, for every event a webhook can subscribe to (a new event fails the type check here). */
const EVENT_HELP = {
  'leaderboard.leader_changed': 'a new rank 1 of a public statistic in the active season',
  'player.first_seen': 'a player uploads for the first time',
  'season.activated': 'a season becomes the active one',
  'season.ended': 'the active season ends (by its end time, or replaced by another)',
  'api_key.revoked': 'a key is revoked',
  'api_key.rotated': 'a key is replaced by a new one',
  'ingest.held': "a client upload's values do not add up and wait for review",
} satisfies Record<Exclude<WebhookEvent, 'webhook.test'>, string>;

export const EVENTS = (Object.keys(EVENT_HELP) as (keyof typeof EVENT_HELP)[]).map((type) => ({
  type,
  help: EVENT_HELP[type],
}));

export function Webhooks() {
  const canEdit = useCan()('write:config');
  const hooks = useWebhooks(canEdit);
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<{ hook: Webhook; secret: string } | null>(null);
  if (!canEdit) {
    return (
      <Restricted title="Webhooks">
        Only admins and owners see webhooks: their URLs often carry a receiver's own token.
      </Restricted>
    );
  }
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Tell a Discord bot or any HTTP receiver what happens: a record falling, a new player, a season starting. Every delivery is signed (Standard Webhooks) and retried for 24 hours."
        primary={{ label: 'Create webhook', onClick: () => setCreating(true) }}
      />
      <DataTable
        caption="Webhooks"
        query={hooks}
        empty="No webhooks yet."
        rowName={(h) => hookName(h)}
        columns={[
          {
            label: 'Receiver',
            rowHeader: true,
            width: 14,
            cell: (h) => <Link to={`/webhooks/${h.id}`}>{hookName(h)}</Link>,
            detail: (h) => (
              <span className="mono">
                <Breakable text={h.url} />
              </span>
            ),
          },
          { label: 'Events', width: 10, cell: (h) => <span className="small">{h.events.join(', ')}</span> },
          { label: 'Status', width: 6, cell: (h) => <EnabledBadge enabled={h.enabled} /> },
          {
            label: 'Last delivery',
            cell: (h) =>
              h.last_delivery ? (
                <>
                  {h.last_delivery.ok ? <Badge tone="good">ok</Badge> : <Badge tone="bad">failed</Badge>}{' '}
                  {ago(h.last_delivery.at)}
                </>
              ) : (
                <span className="muted">none yet</span>
              ),
            detail: (h) =>
              h.last_delivery && !h.last_delivery.ok
                ? (h.last_delivery.error ?? `answered ${h.last_delivery.status_code}`)
                : null,
          },
          { label: 'Waiting', numeric: true, cell: (h) => formatCount(h.pending_deliveries) },
        ]}
      />
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

/** What a webhook is called: its description, else its receiver's host. */
export function hookName(h: Webhook): string {
  return h.description ?? new URL(h.url).host;
}

export function WebhookForm({
  existing,
  onSaved,
}: {
  existing?: Webhook;
  onSaved: (hook: Webhook, secret?: string) => void;
}) {
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
    <Form
      layout="dialog"
      mutation={save}
      errorTitle="The webhook was not saved"
      submitLabel={existing ? 'Save changes' : 'Create webhook'}
      submitDisabled={events.length === 0}
    >
      <TextField
        label="Receiver URL"
        name="url"
        hint={
          <>
            An http(s) address reachable from the service. Addresses inside your network are refused unless the service
            runs with <code>WEBHOOK_ALLOW_PRIVATE=1</code>.
          </>
        }
        type="url"
        required
        maxLength={2048}
        value={url}
        onChange={setUrl}
        placeholder="https://relay.example.com/statboard"
      />
      <TextField
        label="Description (optional)"
        name="description"
        maxLength={200}
        value={description}
        onChange={setDescription}
        placeholder="Discord #records"
      />
      <Checkboxes
        legend="Events"
        name="events"
        value={events}
        onChange={setEvents}
        options={EVENTS.map((ev) => ({
          value: ev.type,
          label: (
            <span>
              <code>{ev.type}</code> <span className="small muted">{ev.help}</span>
            </span>
          ),
        }))}
      />
      <Choice checked={enabled} onChange={setEnabled}>
        Enabled (a disabled webhook is sent nothing and stores nothing new)
      </Choice>
    </Form>
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
