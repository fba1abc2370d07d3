/**
 * Every text the server puts on the wire, in one place.
 * @packageDocumentation
 */

/** The routes listed in 400 and 404 answers. */
export const AVAILABLE_ROUTES = '/api/{endpoint}, /api/{endpoint}/{username}, /favicon.ico';

/** Builders for the `error` text of each failure. */
export const messages = {
  noEndpointsSection: (): string => 'endpoints not found.',
  endpointNotFound: (name: string): string => `Endpoint '${name}' not found.`,
  objectNotFound: (name: string): string => `endpoints.${name}.object not found.`,
  malformedPath: (rawPath: string): string =>
    `Malformed request path '${rawPath}'. Available routes: ${AVAILABLE_ROUTES}`,
  playerRequired: (name: string): string => `Endpoint '${name}' requires a player name: /api/${name}/{username}`,
  notFound: (): string => `Not found. Available routes: ${AVAILABLE_ROUTES}`,
  methodNotAllowed: (method: string): string => `Method ${method} is not supported, use GET.`,
  failed: (): string => 'Failed to collect the requested data.',
  timedOut: (): string => 'Timed out while collecting the requested data.',
  shuttingDown: (): string => 'The plugin is shutting down.',
  tooManyConnections: (limit: number): string => `Too many open connections from your address (at most ${limit}).`,
} as const;
