import { Type } from '@sinclair/typebox';
import { Uuid } from '#src/http/schemas.ts';

export const BootstrapRequest = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 1024 }),
  workspace_name: Type.Optional(Type.String({ minLength: 1, maxLength: 120, pattern: '\\S' })),
});

export const BootstrapResponse = Type.Object({
  data: Type.Object({ workspace_id: Uuid, role: Type.Literal('owner') }),
});

/** A bootstrap token from the CLI: how many minutes it stays valid, and the workspace it gives an owner. */
export const TokenRequest = Type.Object({
  ttl_minutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 525_600, default: 60 })),
  workspace_id: Type.Optional(Uuid),
});
