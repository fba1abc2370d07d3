import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api, ok, type Schemas } from '../api.ts';
import { useCan } from '../app/session.tsx';
import { useSeasons } from '../queries.ts';
import { DialogForm } from '../ui/forms.tsx';
import { Badge, ConfirmDialog, Dialog, Empty, ErrorNotice, Loading, PageHeader, When } from '../ui/ui.tsx';

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
  const [creating, setCreating] = useState(false);
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
        actions={
          canEdit ? (
            <button type="button" className="primary" onClick={() => setCreating(true)}>
              Create season
            </button>
          ) : null
        }
      />
      {!seasons.isPending && !active ? (
        <p className="notice warn" role="status">
          No season is active: every upload is refused until one is.
        </p>
      ) : null}
      <ErrorNotice error={seasons.error} />
      {seasons.isPending ? (
        <Loading />
      ) : seasons.data?.data.length === 0 ? (
        <Empty>No seasons yet. Create one and activate it to start collecting.</Empty>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Slug</th>
                <th scope="col">Status</th>
                <th scope="col">Starts</th>
                <th scope="col">Ends</th>
                {canEdit ? (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {seasons.data?.data.map((s) => (
                <tr key={s.id}>
                  <th scope="row">{s.name}</th>
                  <td>
                    <code>{s.slug}</code>
                  </td>
                  <td>{s.active ? <Badge tone="good">active</Badge> : <Badge>inactive</Badge>}</td>
                  <td>
                    <When at={s.started_at} dateOnly never="—" />
                  </td>
                  <td>
                    <When at={s.ended_at} dateOnly never="—" />
                  </td>
                  {canEdit ? (
                    <td className="row-actions">
                      {s.active ? null : (
                        <button type="button" onClick={() => setActivating(s)} aria-label={`Activate ${s.name}`}>
                          Activate
                        </button>
                      )}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
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
        open={activating !== null}
        confirmLabel="Activate season"
        busy={activate.isPending}
        error={activate.error}
        onCancel={() => {
          activate.reset();
          setActivating(null);
        }}
        onConfirm={() => activating && activate.mutate(activating)}
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
  const id = useId();
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
    <DialogForm
      onSubmit={() => save.mutate()}
      error={save.error}
      errorTitle="The season was not created"
      pending={save.isPending}
      submitLabel="Create season"
      pendingLabel="Creating…"
    >
      <label htmlFor={`${id}-name`}>Name</label>
      <input
        id={`${id}-name`}
        required
        maxLength={120}
        value={name}
        placeholder="Season 2"
        onChange={(e) => {
          setName(e.target.value);
          if (!slugTouched) setSlug(slugOf(e.target.value));
        }}
      />
      <label htmlFor={`${id}-slug`}>Slug</label>
      <input
        id={`${id}-slug`}
        required
        maxLength={120}
        pattern="[a-z0-9]+(-[a-z0-9]+)*"
        value={slug}
        onChange={(e) => {
          setSlugTouched(true);
          setSlug(e.target.value);
        }}
        aria-describedby={`${id}-slug-help`}
      />
      <p id={`${id}-slug-help`} className="small muted">
        Lower-case letters, digits and dashes; websites use it in URLs (<code>?season=…</code>).
      </p>
      <div className="row">
        <div>
          <label htmlFor={`${id}-starts`}>Starts (optional)</label>
          <input id={`${id}-starts`} type="date" value={starts} onChange={(e) => setStarts(e.target.value)} />
        </div>
        <div>
          <label htmlFor={`${id}-ends`}>Ends (optional)</label>
          <input id={`${id}-ends`} type="date" value={ends} onChange={(e) => setEnds(e.target.value)} />
        </div>
      </div>
      <label className="choice">
        <input type="checkbox" checked={activate} onChange={(e) => setActivate(e.target.checked)} />
        Activate it now{hasActive ? ' (the active season stops collecting)' : ''}
      </label>
    </DialogForm>
  );
}
