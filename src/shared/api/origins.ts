import { Type, type Static } from 'typebox';

// Where a scan comes from (docs/contract/api.md#origins): made here (`local`: submitted or
// imported, and what was pulled from a remote since removed), or pulled from a remote, named as
// the remote is. One word for one thing across the list, the stats, the CLI and the viewer.

/** The origin of what was made here; no remote may be called so (remotes.ts). */
export const LOCAL_ORIGIN = 'local';

export const OriginFilter = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[a-z0-9][a-z0-9._-]{0,63}$',
  errorMessage: '(`local` or a remote name) must be 1–64 characters of a–z 0–9 . _ -, starting with a letter or digit',
  description:
    "`local`: scans made here; a remote's name: the scans pulled from it (extension). A name no remote has matches nothing",
});
export type OriginFilter = Static<typeof OriginFilter>;

export const OriginCount = Type.Object({
  origin: Type.String({ description: '`local`, or the name of a remote' }),
  scans: Type.Integer({ minimum: 0, description: 'the scans from there you can see' }),
});
export type OriginCount = Static<typeof OriginCount>;

export const OriginList = Type.Object({
  origins: Type.Array(OriginCount, {
    description: '`local` first, then each remote by name: those whose scans you see, and those that fill your store',
  }),
});
export type OriginList = Static<typeof OriginList>;
