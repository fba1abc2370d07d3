import { KeyVerifier } from './access/key-verifier.ts';
import { ChangeBus } from './cache/bus.ts';
import { Changes } from './cache/changes.ts';
import { type Db, transactionalDb } from './db/types.ts';
import type { Factories, Kit, ServiceConfig, Services } from './feature.ts';
import { FEATURES } from './features.ts';
import type { Metrics } from './metrics/metrics.ts';
import type { Clock } from './modules/sessions/service.ts';

export type { ServiceConfig, Services } from './feature.ts';

export interface ServiceOptions {
  /** The change bus shared with other instances (LISTEN/NOTIFY); default: this process only. */
  bus?: ChangeBus;
  /** Time for admin sessions (tests move it). */
  clock?: Clock;
  /** Where requests, uploads, caches and webhook deliveries are counted; default none. */
  metrics?: Metrics | null;
}

type Name = keyof Services;

function entries(factories: Factories | undefined): [Name, (services: Services) => unknown][] {
  return Object.entries(factories ?? {}) as [Name, (services: Services) => unknown][];
}

/**
 * The one composition root of the service layer, for the server, the CLI and the tests: the services every
 * feature of `FEATURES` makes. Each is made once, after those it uses (a cycle is an error at start). Caches are
 * kept on the main handle only; `transaction` makes the same services again on the transaction, without caches,
 * sharing the process-wide ones (`shared`).
 */
export function buildServices(db: Db, config: ServiceConfig, options: ServiceOptions = {}): Services {
  const bus = options.bus ?? ChangeBus.local();
  const metrics = options.metrics ?? null;
  const build = (handle: Db, caching: boolean, main: Services | null): Services => {
    const changes = new Changes(bus, caching, metrics);
    const kit: Kit = {
      db: handle,
      changes,
      bus,
      config,
      clock: options.clock,
      metrics,
      verifier: new KeyVerifier(handle, changes),
    };
    const services = {
      ...kit,
      transaction: (fn) => handle.transaction((tx) => fn(build(transactionalDb(tx, db.kind), false, main ?? services))),
      flush: async () => {
        await kit.verifier.flushLastUsed();
        for (const f of FEATURES) await f.flush?.(services);
      },
    } as Services;
    // Each service becomes a property that makes it on first use; then all are made, each after what it uses.
    const making: Name[] = [];
    const define = (name: Name, make: () => unknown) => {
      Object.defineProperty(services, name, {
        configurable: true,
        enumerable: true,
        get: () => {
          if (making.includes(name))
            throw new Error(`services use each other in a cycle: ${[...making, name].join(' → ')}`);
          making.push(name);
          const made = make();
          making.pop();
          Object.defineProperty(services, name, { value: made, enumerable: true });
          return made;
        },
      });
    };
    for (const f of FEATURES) {
      for (const [name, make] of entries(f.services)) define(name, () => make(services));
      for (const [name, make] of entries(f.shared)) {
        define(name, main ? () => main[name] : () => make(services));
      }
    }
    for (const name of Object.keys(services) as Name[]) void services[name];
    return services;
  };
  return build(db, true, null);
}
