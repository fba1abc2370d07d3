import { type Static, Type } from '@sinclair/typebox';
import { DateTime, NullableDateTime, NullableString, Uuid } from '#src/http/schemas.ts';
export const Role = Type.Union([
  Type.Literal('owner'),
  Type.Literal('admin'),
  Type.Literal('analyst'),
  Type.Literal('readonly'),
]);

/** A user as the admin API shows it, with their role here (null: none). */
export const AdminUser = Type.Object(
  {
    id: Uuid,
    display_name: Type.String(),
    email: NullableString(),
    role: Type.Union([Role, Type.Null()]),
    last_login_at: NullableDateTime,
    created_at: DateTime,
  },
  { $id: 'AdminUser' },
);
export type AdminUser = Static<typeof AdminUser>;

export const UpdateUserRequest = Type.Object({
  role: Type.Union([Role, Type.Null()], { description: 'null removes the user from the workspace' }),
});
