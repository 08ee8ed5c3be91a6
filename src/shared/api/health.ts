import { Type } from 'typebox';

export const Health = Type.Object({ ok: Type.Boolean() });
