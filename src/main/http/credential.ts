/**
 * Which token or session authenticated a request (FastifyRequest.credential): what a request
 * keeps open, an event stream, ends when that token or session ends.
 */
export type Credential = { kind: 'token'; tokenId: string } | { kind: 'session'; sessionIdHash: string };
