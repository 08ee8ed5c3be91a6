import { Type, type Static } from 'typebox';
import { Id, NameBody, Timestamp } from './common';

export const User = Type.Object({ id: Id, name: Type.String(), created_at: Timestamp });
export type User = Static<typeof User>;

export const UserList = Type.Object({ users: Type.Array(User) });
export type UserList = Static<typeof UserList>;

export const CreateUserBody = NameBody;
export type CreateUserBody = Static<typeof CreateUserBody>;

export const CreatedUser = Type.Object({
  user: User,
  token: Type.String({ description: 'Shown once; only its SHA-256 is stored' }),
});
export type CreatedUser = Static<typeof CreatedUser>;
