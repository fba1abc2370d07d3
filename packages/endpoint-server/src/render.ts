/**
 * Collecting the data of one render from the host and filling an endpoint's object.
 * @packageDocumentation
 */
import type { EndpointConfig } from './config.ts';
import type { Host, PlayerRecord } from './host.ts';
import { type CompiledObject, renderObject, type TemplateValues } from './template.ts';

const NO_EXTERNAL: ReadonlyMap<string, string> = new Map();

/** Whether rendering `object` needs the host (player dates for a named player, or external placeholders). */
export function needsHost(object: CompiledObject, username: string | null): boolean {
  return object.externals.length > 0 || (object.usesDates && username !== null);
}

function dateText(config: EndpointConfig, date: Date | null | undefined): string {
  return date ? config.dateFormatter.format(date) : config.neverSeenValue;
}

function values(
  config: EndpointConfig,
  username: string | null,
  player: PlayerRecord | null,
  external: ReadonlyMap<string, string>,
): TemplateValues {
  return {
    username: username ?? '',
    lastLogin: dateText(config, player?.lastLogin),
    lastSeen: dateText(config, player?.lastSeen),
    external,
  };
}

/** Renders an object without waiting on the host: no external placeholders, player data known (or none). */
export function renderLocal(
  config: EndpointConfig,
  object: CompiledObject,
  username: string | null,
  player: PlayerRecord | null,
): string {
  return renderObject(object, values(config, username, player, NO_EXTERNAL));
}

/** Collects player data and external answers from the host, then renders. */
export async function renderWithHost(
  config: EndpointConfig,
  host: Host,
  object: CompiledObject,
  username: string | null,
  signal: AbortSignal,
): Promise<string> {
  const playerPromise =
    object.usesDates && username !== null ? host.findPlayer(username, signal) : Promise.resolve(null);
  const externalPromise =
    object.externals.length > 0 ? host.resolveExternal(object.externals, username, signal) : Promise.resolve([]);
  const [player, answers] = await Promise.all([playerPromise, externalPromise]);
  let external = NO_EXTERNAL;
  if (object.externals.length > 0) {
    if (answers.length !== object.externals.length)
      throw new Error('the placeholder provider answered the wrong count');
    const map = new Map<string, string>();
    object.externals.forEach((name, i) => {
      map.set(name, answers[i] ?? name);
    });
    external = map;
  }
  return renderObject(object, values(config, username, player, external));
}
