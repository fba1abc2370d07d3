import { formatStatValue, STAT_UNIT_LABELS, STAT_UNITS, type StatUnit } from '@statboard/sdk/format';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { api, ok, type Schemas } from '../api.ts';
import { useCan } from '../app/session.tsx';
import { useStatDefinitions } from '../queries.ts';
import { DataTable } from '../ui/data-table.tsx';
import { Choice, Field, Form, Radios, SelectField, TextField } from '../ui/form.tsx';
import { byGroupAndName, matchesStat } from '../ui/stat-picker.tsx';
import { Badge, Dialog, ErrorNotice, PageHeader } from '../ui/ui.tsx';

type Definition = Schemas['StatDefinition'];

export function Stats() {
  const canCurate = useCan()('write:players');
  const stats = useStatDefinitions();
  const [filter, setFilter] = useState('');
  const [editing, setEditing] = useState<Definition | null>(null);
  const shown = useMemo(
    () => (stats.data?.data ?? []).filter((d) => matchesStat(d, filter.trim())).sort(byGroupAndName),
    [stats.data, filter],
  );
  return (
    <>
      <PageHeader
        title="Statistics"
        description="Every statistic the mod has uploaded, named after the game until you name it. Public ones have leaderboards and appear in website reads; the unit says how values are written; the sort order says whether more or less ranks first."
      />
      <div className="filters">
        <TextField
          label="Search statistics"
          type="search"
          value={filter}
          onChange={setFilter}
          placeholder="Name or key: time played, stone…"
        />
      </div>
      <ErrorNotice error={stats.error} />
      <DataTable
        caption="Statistics"
        rows={shown}
        loading={stats.isPending}
        empty={
          stats.data?.data.length ? 'No statistic matches.' : 'No statistics yet: they appear with the first upload.'
        }
        rowName={(d) => d.display_name}
        columns={[
          {
            label: 'Statistic',
            rowHeader: true,
            width: 10,
            cell: (d) => (
              <>
                {d.display_name}
                {d.display_name_is_default ? null : <span className="small muted"> (renamed)</span>}
              </>
            ),
          },
          { label: 'Key', width: 14, cell: (d) => <code className="small">{d.key}</code> },
          {
            label: 'Unit',
            width: 10,
            cell: (d) => (
              <>
                {STAT_UNIT_LABELS[d.unit]}
                {d.unit_is_default ? null : <span className="small muted"> (set)</span>}
              </>
            ),
          },
          {
            label: 'Visibility',
            width: 6,
            cell: (d) => (d.public ? <Badge tone="good">public</Badge> : <Badge>private</Badge>),
          },
          { label: 'Ranks first', width: 7, cell: (d) => (d.sort_order === 'desc' ? 'the highest' : 'the lowest') },
          {
            label: 'Max per hour',
            width: 8,
            cell: (d) => (d.max_per_hour === null ? 'no limit' : `${formatStatValue(d.max_per_hour, d.unit)} an hour`),
          },
        ]}
        actions={(d) =>
          canCurate ? [{ label: 'Edit', name: `Edit ${d.display_name} (${d.key})`, onClick: () => setEditing(d) }] : []
        }
      />
      <Dialog
        title={`Edit ${editing?.display_name ?? 'statistic'}`}
        open={editing !== null}
        onClose={() => setEditing(null)}
      >
        {editing ? <DefinitionForm definition={editing} onDone={() => setEditing(null)} /> : null}
      </Dialog>
    </>
  );
}

function DefinitionForm({ definition, onDone }: { definition: Definition; onDone: () => void }) {
  const queryClient = useQueryClient();
  // Empty: the default name (the game's, else the key); 'default': the unit that follows from the key.
  const [displayName, setDisplayName] = useState(definition.display_name_is_default ? '' : definition.display_name);
  const [unit, setUnit] = useState<StatUnit | 'default'>(definition.unit_is_default ? 'default' : definition.unit);
  const [isPublic, setPublic] = useState(definition.public);
  const [order, setOrder] = useState(definition.sort_order);
  // Empty: no limit (client uploads of it are never held for rising too fast).
  const [limit, setLimit] = useState(definition.max_per_hour === null ? '' : String(definition.max_per_hour));
  const save = useMutation({
    mutationFn: () =>
      ok(
        api.PUT('/api/v1/admin/stats/{key}', {
          params: { path: { key: definition.key } },
          body: {
            display_name: displayName.trim() === '' ? null : displayName.trim(),
            unit: unit === 'default' ? null : unit,
            public: isPublic,
            sort_order: order,
            max_per_hour: limit.trim() === '' ? null : Number(limit),
          },
        }),
      ),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['stats'] });
      onDone();
    },
  });
  return (
    <Form
      layout="dialog"
      mutation={save}
      errorTitle="The statistic was not changed"
      submitLabel="Save changes"
      onCancel={onDone}
    >
      <p className="small muted">
        <code>{definition.key}</code>
      </p>
      <Field
        label="Display name"
        name="display_name"
        hint="Empty: the game’s own English name for Minecraft statistics, else the key."
      >
        {(control) => (
          <div className="copy-row">
            <input
              {...control}
              maxLength={255}
              value={displayName}
              onChange={(e) => setDisplayName(e.target.value)}
              placeholder={definition.display_name_is_default ? definition.display_name : 'The default name'}
            />
            <button type="button" disabled={displayName === ''} onClick={() => setDisplayName('')}>
              Use the default name
            </button>
          </div>
        )}
      </Field>
      <SelectField
        label="Unit"
        name="unit"
        value={unit}
        onChange={(v) => setUnit(v as StatUnit | 'default')}
        options={[
          {
            value: 'default',
            label: `Default${definition.unit_is_default ? ` (${STAT_UNIT_LABELS[definition.unit]})` : ': follows from the key'}`,
          },
          ...STAT_UNITS.map((u) => ({ value: u, label: STAT_UNIT_LABELS[u] })),
        ]}
      />
      <Choice checked={isPublic} onChange={setPublic}>
        Public: has a leaderboard and appears in website reads
      </Choice>
      <TextField
        label="Max per hour (the most a client upload may add in an hour)"
        name="max_per_hour"
        type="number"
        min={0}
        value={limit}
        onChange={setLimit}
        hint={`In raw values (${STAT_UNIT_LABELS[definition.unit]}). More waits on the Review page; empty: no limit.`}
      />
      <Radios
        legend="Who ranks first"
        name="sort_order"
        value={order}
        onChange={setOrder}
        options={[
          { value: 'desc', label: 'The highest value (blocks mined, play time)' },
          { value: 'asc', label: 'The lowest value (fastest time, fewest deaths)' },
        ]}
      />
    </Form>
  );
}
