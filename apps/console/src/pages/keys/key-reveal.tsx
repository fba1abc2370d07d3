import { useId } from 'react';
import type { Schemas } from '../../api.ts';
import { useMe } from '../../app/session.tsx';
import { Field } from '../../ui/form.tsx';
import { RevealSecretDialog } from '../../ui/reveal-secret.tsx';
import { CopyButton, DownloadButton } from '../../ui/ui.tsx';
import type { ApiKey } from './key-types.ts';

type Server = Schemas['Server'];

/** The mod's config file for a client key: the service's address for players (PUBLIC_URL) and the key. */
function modConfig(url: string, secret: string): string {
  return `${JSON.stringify({ api: { url, key: secret } }, null, 2)}\n`;
}

/** The secret, once: copy it (and, for client keys, the mod's config) before closing. */
export function RevealDialog({
  revealed,
  servers,
  onClose,
}: {
  revealed: { key: ApiKey; secret: string; rotatedFrom?: string } | null;
  servers: Server[];
  onClose: () => void;
}) {
  const id = useId();
  const me = useMe();
  const key = revealed?.key;
  const allowedServers = key?.server_restrictions.length
    ? servers.filter((s) => key.server_restrictions.includes(s.id))
    : null;
  const config = revealed ? modConfig(me.public_url, revealed.secret) : '';
  return (
    <RevealSecretDialog
      title={revealed?.rotatedFrom ? 'Your new key' : 'Your key is ready'}
      open={revealed !== null}
      label={`Secret of ${key?.name ?? 'the key'}`}
      secret={revealed?.secret ?? ''}
      onClose={onClose}
    >
      {key?.type === 'client' ? (
        <>
          <h3>Mod configuration</h3>
          <p>
            Put this in <code>config/hm-stats.json</code> on each player’s client (or enter the URL and key in the mod’s
            settings), then restart the game.
          </p>
          {me.public_url_loopback ? (
            <div className="notice warn" id={`${id}-loopback`}>
              <p>
                <strong>Players cannot reach {me.public_url}.</strong> On a player's computer, 127.0.0.1 and localhost
                mean that computer itself, not this service. Set <code>PUBLIC_URL</code> to the address players use (for
                example <code>https://stats.example.com</code>), restart the service, and put that address in the config
                as <code>url</code>.
              </p>
            </div>
          ) : null}
          <Field label="config/hm-stats.json">
            {(control) => (
              <textarea
                {...control}
                className="code mono"
                readOnly
                rows={7}
                value={config}
                aria-describedby={me.public_url_loopback ? `${id}-loopback` : undefined}
                onFocus={(e) => e.target.select()}
              />
            )}
          </Field>
          <div className="form-actions">
            <CopyButton text={config} label="Copy config" />
            <DownloadButton text={config} filename="hm-stats.json" label="Download hm-stats.json" />
          </div>
          <p className="small muted">
            {allowedServers
              ? `This key uploads only from ${allowedServers.map((s) => `${s.hostname}:${s.port}`).join(', ')}.`
              : 'This key uploads from every registered server.'}
          </p>
        </>
      ) : null}
    </RevealSecretDialog>
  );
}
