import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok, type Schemas } from '../../api.ts';
import { Choice } from '../../ui/form.tsx';
import { ConfirmDialog, formatCount } from '../../ui/ui.tsx';

type Season = Schemas['Season'];
export type PlayerBlock = Schemas['PlayerBlock'];

/** Who the corrections are about: the player's name (their UUID when they have none) and UUID. */
export interface Subject {
  uuid: string;
  name: string;
}

/** The one server whose values the page shows (the Server picker), when not the network totals. */
export interface OnServer {
  id: string;
  name: string;
}

/** `GET /admin/players/blocked`: the players whose uploads are discarded. */
export function useBlockedPlayers() {
  return useQuery({
    queryKey: ['blocked-players'],
    queryFn: () => ok(api.GET('/api/v1/admin/players/blocked')),
  });
}

/** After a correction every read may have changed: values, ranks, history, lists, boards. */
function useRefreshAll() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries();
}

/** One value of the player (a row of the player page), to remove. */
export interface ValueToRemove {
  key: string;
  label: string;
  shown: string;
}

/** "Remove value": one statistic of the player in the season, with its history. */
export function RemoveValueDialog({
  player,
  season,
  server,
  networked = false,
  value,
  onClose,
  onDone,
}: {
  player: Subject;
  season: Season | undefined;
  /** One server's value alone; without it, the value on every server. */
  server?: OnServer | undefined;
  /** The workspace has several servers: without `server`, the dialog says every server's value goes. */
  networked?: boolean;
  value: ValueToRemove | null;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const refresh = useRefreshAll();
  const remove = useMutation({
    mutationFn: (v: ValueToRemove) =>
      ok(
        api.DELETE('/api/v1/admin/players/{player}/stats', {
          params: {
            path: { player: player.uuid },
            query: { season: season!.id, stat: v.key, ...(server ? { server: server.id } : {}) },
          },
        }),
      ),
    onSuccess: (r, v) => {
      onDone(
        `Removed ${r.data.values_removed > 0 ? 'the value' : 'no value'} of ${v.label} of ${player.name}${server ? ` on ${server.name}` : ''}.`,
      );
      void refresh();
    },
  });
  return (
    <ConfirmDialog
      title={`Remove ${value?.label ?? 'value'} of ${player.name}${server ? ` on ${server.name}` : ''}?`}
      subject={value}
      mutation={remove}
      onClose={onClose}
      confirmLabel="Remove value"
      danger
    >
      <p>
        Removes the value of <strong>{value?.label}</strong> ({value?.shown}) of <strong>{player.name}</strong> in{' '}
        {season?.name}
        {server ? (
          <>
            {' '}
            on <strong>{server.name}</strong> (other servers keep theirs)
          </>
        ) : networked ? (
          ' on every server'
        ) : null}
        , with its history. Leaderboards and websites follow at once; their next upload counts again.
      </p>
    </ConfirmDialog>
  );
}

/** "Reset season": every value of the player in the season. */
export function ResetSeasonDialog({
  player,
  season,
  server,
  listed,
  open,
  onClose,
  onDone,
}: {
  player: Subject;
  season: Season | undefined;
  /** One server's values alone; without it, those of every server. */
  server?: OnServer | undefined;
  /** Values the page lists (public statistics). */
  listed: number;
  open: boolean;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const refresh = useRefreshAll();
  const reset = useMutation({
    mutationFn: (s: Season) =>
      ok(
        api.DELETE('/api/v1/admin/players/{player}/stats', {
          params: { path: { player: player.uuid }, query: { season: s.id, ...(server ? { server: server.id } : {}) } },
        }),
      ),
    onSuccess: (r, s) => {
      onDone(
        `Removed ${formatCount(r.data.values_removed)} values of ${player.name} in ${s.name}${server ? ` on ${server.name}` : ''}.`,
      );
      void refresh();
    },
  });
  return (
    <ConfirmDialog
      title={`Reset ${player.name} in ${season?.name ?? 'the season'}${server ? ` on ${server.name}` : ''}?`}
      subject={open && season ? season : null}
      mutation={reset}
      onClose={onClose}
      confirmLabel="Reset season"
      danger
    >
      <p>
        Removes {formatCount(listed)} value{listed === 1 ? '' : 's'} of <strong>{player.name}</strong> in{' '}
        <strong>{season?.name}</strong>
        {server ? (
          <>
            {' '}
            on <strong>{server.name}</strong>
          </>
        ) : null}{' '}
        (and any of statistics websites do not show), with their history. Other seasons
        {server ? ' and other servers' : ''} keep theirs; their next upload counts again.
      </p>
    </ConfirmDialog>
  );
}

/** "Erase player" (owners): everything of the player, optionally blocking their later uploads. */
export function ErasePlayerDialog({
  player,
  season,
  listed,
  open,
  onClose,
  onDone,
}: {
  player: Subject;
  season: Season | undefined;
  listed: number;
  open: boolean;
  onClose: () => void;
  onDone: () => void;
}) {
  const refresh = useRefreshAll();
  const [block, setBlock] = useState(false);
  const erase = useMutation({
    mutationFn: (p: Subject) =>
      ok(
        api.DELETE('/api/v1/admin/players/{player}', {
          params: { path: { player: p.uuid }, query: block ? { block: true } : {} },
        }),
      ),
    onSuccess: () => {
      void refresh();
      onDone();
    },
  });
  return (
    <ConfirmDialog
      title={`Erase ${player.name}?`}
      subject={open ? player : null}
      mutation={erase}
      onClose={onClose}
      confirmLabel="Erase player"
      danger
    >
      <p>
        Removes <strong>{player.name}</strong> for good: {formatCount(listed)} value{listed === 1 ? '' : 's'}
        {season ? ` in ${season.name}` : ''} and every value of other seasons, their history, sessions, events and their
        name. The audit log keeps the UUID <code>{player.uuid}</code> only. This cannot be undone.
      </p>
      <Choice
        checked={block}
        onChange={setBlock}
        hint="Their mod keeps uploading: the uploads are answered as usual, discarded, and counted as rejected (PLAYER_BLOCKED) until you unblock them."
      >
        Also block their uploads
      </Choice>
    </ConfirmDialog>
  );
}

/** "Unblock" (owners): the player's uploads are accepted again. */
export function UnblockDialog({ uuid, name, onClose }: { uuid: string | null; name?: string; onClose: () => void }) {
  const refresh = useRefreshAll();
  const unblock = useMutation({
    mutationFn: (u: string) =>
      ok(api.DELETE('/api/v1/admin/players/{player}/block', { params: { path: { player: u } } })),
    onSuccess: () => {
      void refresh();
      onClose();
    },
  });
  return (
    <ConfirmDialog
      title={`Unblock ${name ?? uuid ?? 'player'}?`}
      subject={uuid}
      mutation={unblock}
      onClose={onClose}
      confirmLabel="Unblock player"
    >
      <p>
        Uploads for <code>{uuid}</code> are accepted again from now on: the player comes back with their next upload,
        starting from what it reports.
      </p>
    </ConfirmDialog>
  );
}
