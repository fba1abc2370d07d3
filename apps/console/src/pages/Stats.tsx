import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import { api, ok, type Schemas } from '../api.ts';
import { useCan } from '../app/session.tsx';
import { useStatDefinitions } from '../queries.ts';
import { DialogForm } from '../ui/forms.tsx';
import { Badge, Dialog, Empty, ErrorNotice, Loading, PageHeader } from '../ui/ui.tsx';

type Definition = Schemas['StatDefinition'];

export function Stats() {
  const canCurate = useCan()('write:players');
  const stats = useStatDefinitions();
  const [filter, setFilter] = useState('');
  const [editing, setEditing] = useState<Definition | null>(null);
  const shown = useMemo(() => {
    const q = filter.trim().toLowerCase();
    return (stats.data?.data ?? []).filter(
      (d) => q === '' || d.key.toLowerCase().includes(q) || (d.display_name ?? '').toLowerCase().includes(q),
    );
  }, [stats.data, filter]);
  return (
    <>
      <PageHeader
        title="Statistics"
        description="Every statistic the mod has uploaded. Public ones have leaderboards and appear in website reads; the sort order says whether more or less ranks first."
      />
      <div className="filters">
        <label>
          Search statistics
          <input
            type="search"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            placeholder="minecraft.custom:…"
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
                <th scope="col">Display name</th>
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
                    <code>{d.key}</code>
                  </th>
                  <td>{d.display_name ?? <span className="muted">—</span>}</td>
                  <td>{d.public ? <Badge tone="good">public</Badge> : <Badge>private</Badge>}</td>
                  <td>{d.sort_order === 'desc' ? 'the highest' : 'the lowest'}</td>
                  {canCurate ? (
                    <td className="row-actions">
                      <button type="button" onClick={() => setEditing(d)} aria-label={`Edit ${d.key}`}>
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
      <Dialog title={`Edit ${editing?.key ?? 'statistic'}`} open={editing !== null} onClose={() => setEditing(null)}>
        {editing ? <DefinitionForm definition={editing} onDone={() => setEditing(null)} /> : null}
      </Dialog>
    </>
  );
}

function DefinitionForm({ definition, onDone }: { definition: Definition; onDone: () => void }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [displayName, setDisplayName] = useState(definition.display_name ?? '');
  const [isPublic, setPublic] = useState(definition.public);
  const [order, setOrder] = useState(definition.sort_order);
  const save = useMutation({
    mutationFn: () =>
      ok(
        api.PUT('/api/v1/admin/stats/{key}', {
          params: { path: { key: definition.key } },
          body: {
            display_name: displayName.trim() === '' ? null : displayName.trim(),
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
      <label htmlFor={`${id}-name`}>Display name</label>
      <input
        id={`${id}-name`}
        maxLength={255}
        value={displayName}
        onChange={(e) => setDisplayName(e.target.value)}
        placeholder="Blocks mined"
      />
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
