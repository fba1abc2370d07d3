import { STAT_UNIT_LABELS, STAT_UNITS, type StatUnit } from '@statboard/sdk/format';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import { api, ok, type Schemas } from '../api.ts';
import { useCan } from '../app/session.tsx';
import { useStatDefinitions } from '../queries.ts';
import { DialogForm } from '../ui/forms.tsx';
import { byGroupAndName, matchesStat } from '../ui/stat-picker.tsx';
import { Badge, Dialog, Empty, ErrorNotice, Loading, PageHeader } from '../ui/ui.tsx';

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
        <label>
          Search statistics
          <input
            type="search"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            placeholder="Name or key: time played, stone…"
          />
        </label>
      </div>
      <ErrorNotice error={stats.error} />
      {stats.isPending ? (
        <Loading />
      ) : shown.length === 0 ? (
        <Empty>
          {stats.data?.data.length ? 'No statistic matches.' : 'No statistics yet: they appear with the first upload.'}
        </Empty>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Statistic</th>
                <th scope="col">Key</th>
                <th scope="col">Unit</th>
                <th scope="col">Visibility</th>
                <th scope="col">Ranks first</th>
                {canCurate ? (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {shown.map((d) => (
                <tr key={d.id}>
                  <th scope="row">
                    {d.display_name}
                    {d.display_name_is_default ? null : <span className="small muted"> (renamed)</span>}
                  </th>
                  <td>
                    <code className="small">{d.key}</code>
                  </td>
                  <td>
                    {STAT_UNIT_LABELS[d.unit]}
                    {d.unit_is_default ? null : <span className="small muted"> (set)</span>}
                  </td>
                  <td>{d.public ? <Badge tone="good">public</Badge> : <Badge>private</Badge>}</td>
                  <td>{d.sort_order === 'desc' ? 'the highest' : 'the lowest'}</td>
                  {canCurate ? (
                    <td className="row-actions">
                      <button
                        type="button"
                        onClick={() => setEditing(d)}
                        aria-label={`Edit ${d.display_name} (${d.key})`}
                      >
                        Edit
                      </button>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
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
  const id = useId();
  const queryClient = useQueryClient();
  // Empty: the default name (the game's, else the key); 'default': the unit that follows from the key.
  const [displayName, setDisplayName] = useState(definition.display_name_is_default ? '' : definition.display_name);
  const [unit, setUnit] = useState<StatUnit | 'default'>(definition.unit_is_default ? 'default' : definition.unit);
  const [isPublic, setPublic] = useState(definition.public);
  const [order, setOrder] = useState(definition.sort_order);
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
          },
        }),
      ),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['stats'] });
      onDone();
    },
  });
  return (
    <DialogForm
      onSubmit={() => save.mutate()}
      error={save.error}
      errorTitle="The statistic was not changed"
      pending={save.isPending}
      submitLabel="Save changes"
      onCancel={onDone}
    >
      <p className="small muted">
        <code>{definition.key}</code>
      </p>
      <label htmlFor={`${id}-name`}>Display name</label>
      <div className="copy-row">
        <input
          id={`${id}-name`}
          maxLength={255}
          value={displayName}
          onChange={(e) => setDisplayName(e.target.value)}
          placeholder={definition.display_name_is_default ? definition.display_name : 'The default name'}
          aria-describedby={`${id}-name-help`}
        />
        <button type="button" disabled={displayName === ''} onClick={() => setDisplayName('')}>
          Use the default name
        </button>
      </div>
      <p id={`${id}-name-help`} className="small muted">
        Empty: the game’s own English name for Minecraft statistics, else the key.
      </p>
      <label htmlFor={`${id}-unit`}>Unit</label>
      <select id={`${id}-unit`} value={unit} onChange={(e) => setUnit(e.target.value as StatUnit | 'default')}>
        <option value="default">
          Default{definition.unit_is_default ? ` (${STAT_UNIT_LABELS[definition.unit]})` : ': follows from the key'}
        </option>
        {STAT_UNITS.map((u) => (
          <option key={u} value={u}>
            {STAT_UNIT_LABELS[u]}
          </option>
        ))}
      </select>
      <label className="choice">
        <input type="checkbox" checked={isPublic} onChange={(e) => setPublic(e.target.checked)} />
        Public: has a leaderboard and appears in website reads
      </label>
      <fieldset>
        <legend>Who ranks first</legend>
        <label className="choice">
          <input type="radio" name="order" checked={order === 'desc'} onChange={() => setOrder('desc')} />
          The highest value (blocks mined, play time)
        </label>
        <label className="choice">
          <input type="radio" name="order" checked={order === 'asc'} onChange={() => setOrder('asc')} />
          The lowest value (fastest time, fewest deaths)
        </label>
      </fieldset>
    </DialogForm>
  );
}
