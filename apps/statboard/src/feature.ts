import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { TSchema } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { AdminGuards } from './access/admin-guard.ts';
import type { KeyGuard } from './access/key-guard.ts';
import type { KeyVerifier } from './access/key-verifier.ts';
import type { ChangeBus } from './cache/bus.ts';
import type { Changes } from './cache/changes.ts';
import type { CliResult, CliValues } from './cli-args.ts';
import type { Config } from './config.ts';
import type { Db } from './db/types.ts';
import type { FastReads } from './http/fast-reads.ts';
import type { Metrics } from './metrics/metrics.ts';
import type { RequestLimits } from './plugins/rate-limit.ts';

/**
 * What a feature is, for the app: the services it makes, its OpenAPI components, its routes and its CLI commands,
 * listed once in its `feature.ts` and registered by the list in `features.ts`. The server (`app.ts`), the
 * composition root (`services.ts`) and the CLI (`cli.ts`) only walk that list.
 */

/** The settings the services use. */
export type ServiceConfig = Pick<
  Config,
  | 'nextUploadAfterSeconds'
  | 'clientNewStatsPerDay'
  | 'sessionIdleMinutes'
  | 'sessionMaxHours'
  | 'playerCacheBytes'
  | 'rankCacheEntries'
  | 'rankCacheBytes'
  | 'publicRankValues'
  | 'historyEnabled'
  | 'historyRetentionDays'
  | 'timeouts'
  | 'webhooks'
>;

/** What every service is built from: the database handle, its caches' link to the change bus, the settings. */
export interface Kit {
  readonly db: Db;
  /** This handle's caches (none inside a transaction) and how its services announce their changes. */
  readonly changes: Changes;
  readonly bus: ChangeBus;
  readonly config: ServiceConfig;
  /** Time for admin sessions, in milliseconds since the epoch (tests move it; default `Date.now`). */
  readonly clock: (() => number) | undefined;
  /** The Prometheus metrics (METRICS_PORT set), or null: nothing is counted. */
  readonly metrics: Metrics | null;
  /** Verifies API keys: the hot path of every key request (the access module's). */
  readonly verifier: KeyVerifier;
}

/**
 * The service layer: HTTP routes and the CLI only translate to these. Every change is one operation that takes
 * its actor and writes its own audit record in the transaction of the change. Each feature adds its services to
 * this interface in its `feature.ts` (`declare module '#src/feature.ts'`), next to the code that makes them.
 */
export interface Services extends Kit {
  /**
   * Runs `fn` with the same services built on one transaction: what they change commits together or not at
   * all, their reads see their own writes (no caches), and caches hear of the changes after the commit.
   */
  transaction<T>(fn: (tx: Services) => Promise<T>): Promise<T>;
  /** Writes what is buffered in memory (key last-use times, ingest diagnostics). */
  flush(): Promise<void>;
}

/** Makes one service from the others (those it uses are made first, whatever the order of the list). */
export type Factories = { readonly [K in keyof Services]?: (services: Services) => Services[K] };

/** What routes are registered with: the settings, the request limits and the guards. */
export interface Edge {
  readonly config: Config;
  readonly limits: RequestLimits;
  /** Key routes: the guard of every key route, and the fast path of cached key reads. */
  readonly key: { readonly guard: KeyGuard; readonly reads: FastReads };
  /** Admin routes: the session and role guards. */
  readonly admin: AdminGuards;
}

export type RoutePlugin = FastifyPluginAsyncTypebox | ((app: FastifyInstance) => Promise<void>);

/** A feature's route plugins, in the order they are registered. */
export interface Routes {
  /** Under `/api/v1`. */
  readonly v1?: readonly RoutePlugin[];
  /** At the root: login, health, the mod's connection test. */
  readonly root?: readonly RoutePlugin[];
}

/** A command of `npx statboard`. */
export interface Command {
  /** The words that name it: `server create`. */
  readonly name: string;
  /**
   * Its line of the usage text after the name (options), and any further lines (indented): `--workspace W …`.
   * Empty for a command without options.
   */
  readonly usage: string;
  /** Calls the services with the request body the admin API would take; the actor is the CLI. */
  run(services: Services, values: CliValues, context: CommandContext): Promise<CliResult>;
}

/** What a command knows of where it runs, beyond the services. */
export interface CommandContext {
  /**
   * The service's address (PUBLIC_URL) when the command runs on the configured database, for the lines that say
   * where to go next; null when it runs on services it was given (tests).
   */
  readonly publicUrl: string | null;
}

export interface Feature {
  /** The module's folder name. */
  readonly name: string;
  /** Services made on each database handle: the main one, and again on each transaction (without caches). */
  readonly services?: Factories;
  /** Services made once per process and shared by the transactions' services too. */
  readonly shared?: Factories;
  /** Writes what the feature's services buffer in memory (`Services.flush`). */
  readonly flush?: (services: Services) => Promise<void>;
  /** Shapes with an `$id`: registered once, listed in the OpenAPI document as components, referred to by routes. */
  readonly schemas?: readonly TSchema[];
  readonly routes?: (services: Services, edge: Edge) => Routes;
  readonly cli?: readonly Command[];
}
