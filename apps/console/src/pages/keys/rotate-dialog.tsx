import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok } from '../../api.ts';
import { Form, Radios } from '../../ui/form.tsx';
import { Dialog } from '../../ui/ui.tsx';
import type { ApiKey } from './key-types.ts';

const GRACE: { label: string; seconds: number }[] = [
  { label: 'None: the old key stops at once', seconds: 0 },
  { label: '1 hour', seconds: 3_600 },
  { label: '1 day', seconds: 86_400 },
  { label: '7 days', seconds: 604_800 },
];

export function RotateDialog({
  apiKey,
  onClose,
  onRotated,
}: {
  apiKey: ApiKey | null;
  onClose: () => void;
  onRotated: (key: ApiKey, secret: string, from: string) => void;
}) {
  const [grace, setGrace] = useState(86_400);
  const rotate = useMutation({
    mutationFn: (k: ApiKey) =>
      ok(
        api.POST('/api/v1/admin/api-keys/{key}/rotate', {
          params: { path: { key: k.id } },
          body: grace > 0 ? { grace_seconds: grace } : {},
        }),
      ),
    onSuccess: (r) => onRotated(r.data, r.secret, apiKey?.name ?? ''),
  });
  return (
    <Dialog
      title={`Rotate ${apiKey?.name ?? 'key'}`}
      open={apiKey !== null}
      onClose={() => {
        rotate.reset();
        onClose();
      }}
    >
      <Form
        layout="dialog"
        onSubmit={() => apiKey && rotate.mutate(apiKey)}
        error={rotate.error}
        errorTitle="The key was not rotated"
        pending={rotate.isPending}
        submitLabel="Rotate key"
        pendingLabel="Rotating…"
        onCancel={onClose}
      >
        <p>
          A new key with the same settings replaces this one. Give the clients using it time to switch: the old key
          keeps working during the grace window, then stops.
        </p>
        <Radios
          legend="Grace window"
          name="grace_seconds"
          value={grace}
          onChange={setGrace}
          options={GRACE.map((g) => ({ value: g.seconds, label: g.label }))}
        />
      </Form>
    </Dialog>
  );
}
