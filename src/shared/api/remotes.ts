import { Type, type Static } from 'typebox';
import { Id, Timestamp } from './common';
import { SyncSummary } from './sync';

// The remotes a store syncs with (docs/contract/api.md#remotes): workspace owner only. The
// remote's token goes in and never comes out: no answer, log line or error carries it.

export const REMOTE_NAME_PATTERN = '^[a-z0-9][a-z0-9._-]{0,63}$';

export const RemoteName = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: REMOTE_NAME_PATTERN,
  errorMessage: 'must be 1–64 characters of a–z 0–9 . _ -, starting with a letter or digit',
  description:
    'What you call the remote (`scandesk sync team`): 1–64 of a–z 0–9 . _ -, starting with a letter or digit; not `local`, which names the scans made here (the create answers 400)',
});

/** Long enough for any base URL a person types, short enough to log and show. */
export const REMOTE_URL_MAX_LENGTH = 2048;

export const RemoteUrl = Type.String({
  minLength: 1,
  maxLength: REMOTE_URL_MAX_LENGTH,
  description:
    'The base URL (a path prefix is kept): https, or http to loopback only unless `allow_insecure_http`; ' +
    'no user:password@, query or fragment. Answered without a trailing slash.',
});

export const RemoteToken = Type.String({
  minLength: 1,
  maxLength: 4096,
  pattern: '^[\\x21-\\x7e]+$',
  errorMessage: 'must be 1–4096 printable ASCII characters without spaces',
  description: "The remote user's bearer token; kept in a 0600 file of the data directory, never answered",
});

/** A PEM bundle of CA certificates: a private CA's chain is a few kilobytes. */
export const CA_PEM_MAX_LENGTH = 65536;

export const CaPem = Type.String({
  minLength: 1,
  maxLength: CA_PEM_MAX_LENGTH,
  description: "PEM certificates the remote's certificate must chain to (a private CA), instead of the system's",
});

/** Also the viewer's input bounds. */
export const INTERVAL_MINUTES_BOUNDS = { minimum: 1, maximum: 1440 } as const;

export const IntervalMinutes = Type.Integer({
  ...INTERVAL_MINUTES_BOUNDS,
  description: 'minutes between background syncs',
});

export const RemoteKindSchema = Type.Enum(['scandesk', 'upstream'] as const);

export const Remote = Type.Object({
  id: Id,
  name: Type.String(),
  url: Type.String(),
  kind: Type.Union([RemoteKindSchema, Type.Null()], {
    description:
      '`scandesk` (has the change feed), `upstream` (the upstream interface alone); null until tested or synced',
  }),
  remote_user_id: Type.Union([Type.String(), Type.Null()], { description: "the remote user's id there, once known" }),
  ca_pem: Type.Union([Type.String(), Type.Null()]),
  allow_insecure_http: Type.Boolean(),
  background: Type.Boolean({ description: 'sync every `interval_minutes` and when the network returns' }),
  interval_minutes: Type.Integer(),
  push_since: Timestamp,
  created_at: Timestamp,
  last_sync_at: Type.Union([Timestamp, Type.Null()]),
  last_sync: Type.Union([SyncSummary, Type.Null()]),
  pending_push: Type.Optional(
    Type.Integer({
      minimum: 0,
      description: 'local scans waiting to go up to it (0 for a plain upstream); in the list and get answers',
    }),
  ),
});
export type Remote = Static<typeof Remote>;

export const RemoteList = Type.Object({ remotes: Type.Array(Remote) });
export type RemoteList = Static<typeof RemoteList>;

export const CreateRemoteBody = Type.Object(
  {
    name: RemoteName,
    url: RemoteUrl,
    token: RemoteToken,
    ca_pem: Type.Optional(CaPem),
    allow_insecure_http: Type.Optional(Type.Boolean({ default: false })),
    background: Type.Optional(Type.Boolean({ default: true })),
    interval_minutes: Type.Optional(IntervalMinutes),
  },
  { additionalProperties: false },
);
export type CreateRemoteBody = Static<typeof CreateRemoteBody>;

export const UpdateRemoteBody = Type.Object(
  {
    url: Type.Optional(RemoteUrl),
    token: Type.Optional(RemoteToken),
    ca_pem: Type.Optional(Type.Union([CaPem, Type.Null()], { description: 'null: trust the system CAs again' })),
    allow_insecure_http: Type.Optional(Type.Boolean()),
    background: Type.Optional(Type.Boolean()),
    interval_minutes: Type.Optional(IntervalMinutes),
  },
  { additionalProperties: false },
);
export type UpdateRemoteBody = Static<typeof UpdateRemoteBody>;

export const RemoteParams = Type.Object({ name: RemoteName });
export type RemoteParams = Static<typeof RemoteParams>;

export const RemoteTestResult = Type.Object({
  kind: RemoteKindSchema,
  remote_user_id: Type.Optional(Type.String({ description: 'a Scandesk remote: the id of the user the token is' })),
  organizations: Type.Integer({ minimum: 0, description: 'organizations the remote user belongs to' }),
  scans: Type.Integer({ minimum: 0, description: 'scans the remote user can see' }),
});
export type RemoteTestResult = Static<typeof RemoteTestResult>;
