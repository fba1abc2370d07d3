import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, ok } from '../../api.ts';
import { useMe } from '../../app/session.tsx';
import { useSeasons, useServers } from '../../queries.ts';
import { canUpload } from '../keys/key-types.ts';

/** How often the checklist looks again while it waits for a step done elsewhere (the mod's first upload). */
const POLL_MS = 10_000;

interface Step {
  done: boolean;
  title: string;
  /** What to do, while the step is open. */
  todo: string;
  to: string;
  action: string;
}

/**
 * What to do after setup, until the first upload arrives: register the server, start a season, create the mod's
 * key, wait for the first upload. Each step links to the page that does it and ticks itself from what the
 * service says (servers, seasons, keys); the list goes away once a server has had an upload, or when hidden.
 */
export function SetupChecklist({ rejected }: { rejected: boolean }) {
  const me = useMe();
  const hiddenKey = `statboard.checklist-hidden.${me.workspace_id}`;
  const [hidden, setHidden] = useState(() => localStorage.getItem(hiddenKey) === '1');
  const servers = useServers({ refetchInterval: POLL_MS });
  const seasons = useSeasons();
  const keys = useQuery({ queryKey: ['keys'], queryFn: () => ok(api.GET('/api/v1/admin/api-keys')) });
  if (!servers.data || !seasons.data || !keys.data) return null;
  const uploaded = servers.data.data.some((s) => s.last_ingest_at !== null);
  if (uploaded || hidden) return null;
  const first = servers.data.data[0];
  const steps: Step[] = [
    {
      done: servers.data.data.length > 0,
      title: 'Register your server',
      todo: 'The address players type to join; uploads name it.',
      to: '/servers?new=',
      action: 'Register a server',
    },
    {
      done: seasons.data.data.some((s) => s.active),
      title: 'Start a season',
      todo: 'Uploads count toward the active season; none is accepted without one.',
      to: '/seasons?new=',
      action: 'Create a season',
    },
    {
      done: keys.data.data.some(canUpload),
      title: 'Create the mod’s key',
      todo: 'A client key, with the config file to put on players’ clients.',
      to: '/keys?new=client',
      action: 'Create a client key',
    },
    {
      done: false,
      title: 'Wait for the first upload',
      todo: rejected
        ? 'Uploads arrived but were refused: the list below says why and how to fix it.'
        : `Start the game with the mod configured and join ${first ? `${first.hostname}:${first.port}` : 'your server'}: this ticks itself when the first upload arrives.`,
      to: rejected ? '#rejections-heading' : '/servers',
      action: rejected ? 'See the refused uploads' : 'See your servers',
    },
  ];
  const next = steps.findIndex((s) => !s.done);
  return (
    <section className="card checklist" aria-labelledby="checklist-heading">
      <div className="checklist-head">
        <h2 id="checklist-heading">Get your first statistics</h2>
        <button
          type="button"
          className="link"
          onClick={() => {
            localStorage.setItem(hiddenKey, '1');
            setHidden(true);
          }}
        >
          Hide this checklist
        </button>
      </div>
      <ol>
        {steps.map((s, i) => (
          <li key={s.title} className={s.done ? 'done' : i === next ? 'next' : undefined}>
            <span className="check" aria-hidden="true">
              {s.done ? '✓' : i + 1}
            </span>
            <div>
              <strong>{s.title}</strong>
              <span className="visually-hidden">{s.done ? ' (done)' : ' (to do)'}</span>
              {s.done ? null : (
                <>
                  <p className="small muted">{s.todo}</p>
                  {s.to.startsWith('#') ? (
                    <a href={s.to}>{s.action}</a>
                  ) : (
                    <Link to={s.to} className={i === next ? 'button primary' : undefined}>
                      {s.action}
                    </Link>
                  )}
                </>
              )}
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}
