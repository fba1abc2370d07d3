import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { api, ok, type Schemas } from '../api.ts';
import { useCan } from '../app/session.tsx';
import { useSeasons } from '../queries.ts';
import { DataTable } from '../ui/data-table.tsx';
import { Choice, Field, Form, TextField } from '../ui/form.tsx';
import { Badge, ConfirmDialog, Dialog, PageHeader, When } from '../ui/ui.tsx';

type Season = Schemas['Season'];

function slugOf(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 120);
}

export function Seasons() {
  const canEdit = useCan()('write:config');
  const queryClient = useQueryClient();
  const seasons = useSeasons();
  const [params, setParams] = useSearchParams();
  // `?new` (from the overview's checklist) opens the form.
  const creating = canEdit && params.has('new');
  const setCreating = (open: boolean) => setParams(open ? { new: '' } : {}, { replace: !open });
  const [activating, setActivating] = useState<Season | null>(null);
  const active = seasons.data?.data.find((s) => s.active) ?? null;
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['seasons'] });
  const activate = useMutation({
    mutationFn: (s: Season) =>
      ok(api.POST('/api/v1/admin/seasons/{season}/activate', { params: { path: { season: s.id } } })),
    onSuccess: () => {
      setActivating(null);
      void refresh();
    },
  });

  return (
    <>
      <PageHeader
        title="Seasons"
        description="Uploads count toward the active season; each season has its own values and leaderboards."
        primary={canEdit && { label: 'Create season', onClick: () => setCreating(true) }}
      />
      {!seasons.isPending && !active ? (
        <p className="notice warn" role="status">
          No season is active: every upload is refused until one is.
        </p>
      ) : null}
      <DataTable
        caption="Seasons"
        query={seasons}
        empty="No seasons yet. Create one and activate it to start collecting."
        rowName={(s) => s.name}
        columns={[
          { label: 'Name', rowHeader: true, width: 9, cell: (s) => s.name },
          { label: 'Slug', cell: (s) => <code>{s.slug}</code> },
          {
            label: 'Status',
            width: 6,
            cell: (s) => (s.active ? <Badge tone="good">active</Badge> : <Badge>inactive</Badge>),
          },
          { label: 'Starts', width: 7, cell: (s) => <When at={s.started_at} dateOnly never="—" /> },
          { label: 'Ends', width: 7, cell: (s) => <When at={s.ended_at} dateOnly never="—" /> },
        ]}
        actions={(s) => (canEdit && !s.active ? [{ label: 'Activate', onClick: () => setActivating(s) }] : [])}
      />
      <Dialog title="Create a season" open={creating} onClose={() => setCreating(false)}>
        {creating ? (
          <SeasonForm
            hasActive={active !== null}
            onDone={() => {
              setCreating(false);
              void refresh();
            }}
          />
        ) : null}
      </Dialog>
      <ConfirmDialog
        title={`Activate ${activating?.name ?? 'season'}?`}
        subject={activating}
        mutation={activate}
        onClose={() => setActivating(null)}
        confirmLabel="Activate season"
      >
        <p>
          From now on every upload counts toward <strong>{activating?.name}</strong>
          {active ? (
            <>
              {' '}
              instead of <strong>{active.name}</strong>, which stops collecting; its values and leaderboards stay
              readable
            </>
          ) : null}
          . Websites asking for the active season show {activating?.name}.
        </p>
      </ConfirmDialog>
    </>
  );
}

function SeasonForm({ hasActive, onDone }: { hasActive: boolean; onDone: () => void }) {
  const [name, setName] = useState('');
  const [slug, setSlug] = useState('');
  const [slugTouched, setSlugTouched] = useState(false);
  const [starts, setStarts] = useState('');
  const [ends, setEnds] = useState('');
  const [activate, setActivate] = useState(!hasActive);
  const save = useMutation({
    mutationFn: () =>
      ok(
        api.POST('/api/v1/admin/seasons', {
          body: {
            name: name.trim(),
            slug,
            started_at: starts ? new Date(`${starts}T00:00:00Z`).toISOString() : null,
            ended_at: ends ? new Date(`${ends}T00:00:00Z`).toISOString() : null,
            active: activate,
          },
        }),
      ),
    onSuccess: onDone,
  });
  return (
    <Form
      layout="dialog"
      mutation={save}
      errorTitle="The season was not created"
      submitLabel="Create season"
      pendingLabel="Creating…"
    >
      <Field label="Name" name="name">
        {(control) => (
          <input
            {...control}
            required
            maxLength={120}
            value={name}
            placeholder="Season 2"
            onChange={(e) => {
              setName(e.target.value);
              if (!slugTouched) setSlug(slugOf(e.target.value));
            }}
          />
        )}
      </Field>
      <Field
        label="Slug"
        name="slug"
        hint={
          <>
            Lower-case letters, digits and dashes; websites use it in URLs (<code>?season=…</code>).
          </>
        }
      >
        {(control) => (
          <input
            {...control}
            required
            maxLength={120}
            pattern="[a-z0-9]+(-[a-z0-9]+)*"
            value={slug}
            onChange={(e) => {
              setSlugTouched(true);
              setSlug(e.target.value);
            }}
          />
        )}
      </Field>
      <div className="row">
        <TextField label="Starts (optional)" name="started_at" type="date" value={starts} onChange={setStarts} />
        <TextField label="Ends (optional)" name="ended_at" type="date" value={ends} onChange={setEnds} />
      </div>
      <Choice checked={activate} onChange={setActivate}>
        Activate it now{hasActive ? ' (the active season stops collecting)' : ''}
      </Choice>
    </Form>
  );
}
