import { Type } from '@sinclair/typebox';
import { DateTime, NullableString, Uuid } from '#src/http/schemas.ts';

export const AuditRecord = Type.Object(
  {
    id: Uuid,
    workspace_id: Type.Union([Uuid, Type.Null()]),
    actor: Type.Object({
      user_id: Type.Union([Uuid, Type.Null()]),
      label: NullableString({ description: "Set when there is no user, e.g. 'cli'" }),
      display_name: NullableString(),
    }),
    action: Type.String(),
    target_type: Type.String(),
    target_id: NullableString(),
    target_name: NullableString({
      description:
        "The target by name, as the record saw it (a key's or season's name, a user's email, a server's display name); null when nothing names it",
    }),
    summary: Type.String({
      description: "What happened in one sentence for people, e.g. 'Created API key Mod uploads'",
    }),
    before: Type.Unknown({ description: 'The target before the change, without secrets' }),
    after: Type.Unknown({ description: 'The target after the change, without secrets' }),
    ip: NullableString(),
    request_id: NullableString(),
    created_at: DateTime,
  },
  { $id: 'AuditRecord' },
);
