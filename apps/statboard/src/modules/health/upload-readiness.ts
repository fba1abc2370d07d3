import { type Static, Type } from '@sinclair/typebox';
import type { AuthKey } from '#src/access/auth-key.ts';
import { admitsSeason, admitsServer, restrictsServers } from '#src/access/restrictions.ts';
import type { SeasonService } from '#src/modules/seasons/service.ts';
import type { ServerService } from '#src/modules/servers/service.ts';

export const ConnectionWarning = Type.Object(
  {
    code: Type.Union(
      [
        Type.Literal('NO_ACTIVE_SEASON'),
        Type.Literal('SEASON_NOT_ALLOWED'),
        Type.Literal('NO_ENABLED_SERVER'),
        Type.Literal('NO_ALLOWED_SERVER'),
      ],
      { description: 'What would refuse every upload' },
    ),
    message: Type.String({ description: 'A sentence for the player or operator: what is wrong and what to do' }),
  },
  { description: 'Why uploads with this key would be refused although the connection works' },
);
type Warning = Static<typeof ConnectionWarning>;

/** What the connection test needs to know about a workspace. */
export interface UploadReadinessDeps {
  seasons: Pick<SeasonService, 'active'>;
  servers: Pick<ServerService, 'list'>;
}

/**
 * For a key that uploads (`ingest:write`): what would refuse every one of its uploads although the key works,
 * in the order ingest checks them (the server, then the season). The mod's "Test connection" shows these
 * instead of a plain "ok". Empty when nothing is known to stand in the way (the server a player joins is
 * checked by the upload itself).
 */
export async function uploadWarnings(key: AuthKey, deps: UploadReadinessDeps): Promise<Warning[]> {
  if (!key.scopes.has('ingest:write')) return [];
  const warnings: Warning[] = [];
  const enabled = (await deps.servers.list(key.workspaceId)).filter((s) => s.enabled);
  // No server it may upload through is registered and enabled: which of the two is the operator's to fix.
  if (!enabled.some((s) => admitsServer(key, s.id))) {
    warnings.push(
      restrictsServers(key)
        ? {
            code: 'NO_ALLOWED_SERVER',
            message:
              'None of the servers this key is restricted to is registered and enabled: every upload is refused. ' +
              "Enable one of them, or change the key's servers, in the console.",
          }
        : {
            code: 'NO_ENABLED_SERVER',
            message:
              'No server is registered and enabled in this workspace: every upload is refused. Register the server ' +
              'players join (its address and port) in the console.',
          },
    );
  }
  const season = await deps.seasons.active(key.workspaceId);
  if (season === null) {
    warnings.push({
      code: 'NO_ACTIVE_SEASON',
      message: 'No season is active: every upload is refused until one is started or activated in the console.',
    });
  } else if (!admitsSeason(key, season.id)) {
    warnings.push({
      code: 'SEASON_NOT_ALLOWED',
      message: `The active season (${season.name}) is not one this key may upload to: every upload is refused. Change the key's seasons in the console.`,
    });
  }
  return warnings;
}
