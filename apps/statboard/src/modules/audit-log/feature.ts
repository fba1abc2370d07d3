import type { Feature } from '#src/feature.ts';
import { auditLogRoutes } from './routes.ts';
import { AuditRecord } from './schemas.ts';
import { AuditService } from './service.ts';

declare module '#src/feature.ts' {
  interface Services {
    /** Every change's record, written inside the change's transaction. */
    readonly audit: AuditService;
  }
}

export const auditLogFeature = {
  name: 'audit-log',
  services: { audit: (s) => new AuditService(s.db) },
  schemas: [AuditRecord],
  routes: (s, { admin }) => ({ v1: [auditLogRoutes(s.audit, admin)] }),
} satisfies Feature;
