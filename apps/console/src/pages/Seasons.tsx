import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { api, ok, type Schemas } from '../api.ts';
import { useCan } from '../app/session.tsx';
import { useSeasons } from '../queries.ts';
import { DataTable } from '../ui/data-table.tsx';
import { Choice, Field, Form, Radios, TextField } from '../ui/form.tsx';
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

const DAY = 86_400_000;

/**
 * "3 days", "5 hours", "12 minutes": how far ahead `at` is from `now`, in the largest whole unit. Days are counted
 * as dates (UTC, as the season form saves them): a season starting on the date three days on "starts in 3 days"
 * whatever the time of day now.
 */
export function aheadInWords(at: number, now: number): string {
  const ms = at - now;
  const minutes = Math.max(1, Math.round(ms / 60_000));
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (minutes < 60) return unit(minutes, 'minute');
  const hours = Math.round(minutes / 60);
  if (hours < 24) return unit(hours, 'hour');
  return unit(Math.max(1, Math.floor(at / DAY) - Math.floor(now / DAY)), 'day');
}

/** Where a season stands now, as its badge says it: active, starts in…, ended, or inactive. */
function SeasonStatus({ season: s }: { season: Season }) {
  const now = Date.now();
  const start = s.started_at ? new Date(s.started_at).getTime() : null;
  const end = s.ended_at ? new Date(s.ended_at).getTime() : null;
  if (s.active) {
    return end !== null && end > now ? (
      <Badge tone="good">active, ends in {aheadInWords(end, now)}</Badge>
    ) : (
      <Badge tone="good">active</Badge>
    );
  }
  if (start !== null && start > now) return <Badge tone="warn">starts in {aheadInWords(start, now)}</Badge>;
  if (end !== null && end <= now) return <Badge>ended</Badge>;
  return <Badge>inactive</Badge>;
}

const SCORING_WORDS: Record<Season['scoring'], string> = {
  absolute: 'values as reported',
  gains: 'gains since the start',
};

export function Seasons() {
  const canEdit = useCan()('write:config');
  const queryClient = useQueryClient();
  const seasons = useSeasons();
  const [params, setParams] = useSearchParams();
  // `?new` (from the overview's checklist) opens the form.
  const creating = canEdit && params.has('new');
  const setCreating = (open: boolean) => setParams(open ? { new: '' } : {}, { replace: !open });
  const [activating, setActivating] = useState<Season | null>(null);
  const [editing, setEditing] = useState<Season | null>(null);
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
          { label: 'Status', width: 8, cell: (s) => <SeasonStatus season={s} /> },
          { label: 'Ranks', width: 8, cell: (s) => SCORING_WORDS[s.scoring] },
          { label: 'Starts', width: 7, cell: (s) => <When at={s.started_at} dateOnly never="—" /> },
          { label: 'Ends', width: 7, cell: (s) => <When at={s.ended_at} dateOnly never="—" /> },
        ]}
        actions={(s) =>
          canEdit
            ? [
                { label: 'Edit', onClick: () => setEditing(s) },
                ...(s.active ? [] : [{ label: 'Activate', onClick: () => setActivating(s) }]),
              ]
            : []
        }
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
      <Dialog title={`Edit ${editing?.name ?? 'season'}`} open={editing !== null} onClose={() => setEditing(null)}>
        {editing ? (
          <SeasonForm
            season={editing}
            hasActive={active !== null}
            onDone={() => {
              setEditing(null);
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

/** A date input's value ("2026-12-01") for a stored time, in UTC as the form saves it. */
function dateInput(at: string | null): string {
  return at ? at.slice(0, 10) : '';
}

/** The question the operator can answer, and what each answer does to the season's leaderboards. */
const SCORING_OPTIONS = [
  {
    value: 'absolute' as const,
    label: 'Yes: rank the values as the game reports them',
    hint: "Everyone started from zero on the new world, so the game's own counters are the season's numbers.",
  },
  {
    value: 'gains' as const,
    label: 'No: rank what each player gains during the season',
    hint: "The world carries on, and its counters hold everything since a player first joined. Each player's value counts from where it stood when the season started; a counter that drops (a world reset) keeps what was gained.",
  },
];

/** Creates a season, or with `season` changes it (`PUT`): its name, slug, times and scoring. */
function SeasonForm({ season, hasActive, onDone }: { season?: Season; hasActive: boolean; onDone: () => void }) {
  const [name, setName] = useState(season?.name ?? '');
  const [slug, setSlug] = useState(season?.slug ?? '');
  const [slugTouched, setSlugTouched] = useState(season !== undefined);
  const [starts, setStarts] = useState(dateInput(season?.started_at ?? null));
  const [ends, setEnds] = useState(dateInput(season?.ended_at ?? null));
  const [scoring, setScoring] = useState<Season['scoring']>(season?.scoring ?? 'absolute');
  const [activate, setActivate] = useState(!hasActive);
  const times = () => ({
    started_at: starts ? new Date(`${starts}T00:00:00Z`).toISOString() : null,
    ended_at: ends ? new Date(`${ends}T00:00:00Z`).toISOString() : null,
  });
  const save = useMutation({
    mutationFn: () => {
      if (season) {
        // Unchanged dates keep their stored time of day.
        const t = times();
        return ok(
          api.PUT('/api/v1/admin/seasons/{season}', {
            params: { path: { season: season.id } },
            body: {
              name: name.trim(),
              slug,
              ...(starts === dateInput(season.started_at) ? {} : { started_at: t.started_at }),
              ...(ends === dateInput(season.ended_at) ? {} : { ended_at: t.ended_at }),
              scoring,
            },
          }),
        );
      }
      return ok(
        api.POST('/api/v1/admin/seasons', {
          body: { name: name.trim(), slug, ...times(), scoring, active: activate },
        }),
      );
    },
    onSuccess: onDone,
  });
  return (
    <Form
      layout="dialog"
      mutation={save}
      errorTitle={season ? 'The season was not saved' : 'The season was not created'}
      submitLabel={season ? 'Save season' : 'Create season'}
      pendingLabel={season ? 'Saving…' : 'Creating…'}
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
      <p className="muted">
        A season with a start ahead begins by itself then (the active season ends); an active season ends by itself at
        its end.
      </p>
      <Radios
        legend="Did this season start on a fresh world?"
        name="scoring"
        value={scoring}
        onChange={setScoring}
        options={SCORING_OPTIONS}
        hint={season ? 'Changing it changes every leaderboard of the season at once; no value is lost.' : undefined}
      />
      {season ? null : (
        <Choice checked={activate} onChange={setActivate}>
          Activate it now{hasActive ? ' (the active season stops collecting)' : ''}
        </Choice>
      )}
    </Form>
  );
}
