import type { FastifyRequest } from 'fastify';
import { transactionalDb } from '#src/db/types.ts';
import type { AuditEntry } from '#src/modules/audit/service.ts';
import { KeyService } from '#src/modules/keys/service.ts';
import { PlayerAdminService } from '#src/modules/players/admin-service.ts';
import { SeasonService } from '#src/modules/seasons/service.ts';
import { ServerService } from '#src/modules/servers/service.ts';
import { StatDefinitionService } from '#src/modules/stat-definitions/service.ts';
import { UserService } from '#src/modules/users/service.ts';
import { memberOf } from '#src/plugins/session-auth.ts';
import type { Services } from '#src/services.ts';

/** The services a change uses, built on its transaction. */
export interface TxServices {
  keys: KeyService;
  servers: ServerService;
  seasons: SeasonService;
  playerAdmin: PlayerAdminService;
  statDefinitions: StatDefinitionService;
  users: UserService;
}

export type AuditFacts = Pick<AuditEntry, 'action' | 'targetType' | 'targetId' | 'before' | 'after'>;

/**
 * Runs an admin change and writes its audit record in the same transaction: both commit, or neither. The
 * record names the signed-in member, the client IP and the request id.
 */
export function change<T>(
  services: Services,
  request: FastifyRequest,
  fn: (s: TxServices, audit: (facts: AuditFacts) => Promise<void>) => Promise<T>,
): Promise<T> {
  const member = memberOf(request);
  return services.db.transaction(async (tx) => {
    const db = transactionalDb(tx, services.db.kind);
    const s: TxServices = {
      keys: new KeyService(db),
      servers: new ServerService(db),
      seasons: new SeasonService(db),
      playerAdmin: new PlayerAdminService(db),
      statDefinitions: new StatDefinitionService(db),
      users: new UserService(db),
    };
    const audit = async (facts: AuditFacts) => {
      await services.audit.record(tx, {
        ...facts,
        workspaceId: member.workspaceId,
        actorUserId: member.userId,
        ip: request.ip,
        requestId: request.id,
      });
    };
    return fn(s, audit);
  });
}
