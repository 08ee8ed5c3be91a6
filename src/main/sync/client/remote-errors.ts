// What can go wrong talking to a remote, as classes the sync engine tells apart (could not reach
// → exit 2 and retry later; refused → a problem to show; broken → the remote is not what it
// claims) and as one sentence each for a person. No message ever holds the token, a request body
// or more of the remote's answer than its own error message.

/** Every failure of a RemoteClient call. */
export abstract class RemoteError extends Error {}

/** DNS, connect, reset, a timeout, or a gateway in front of the remote saying it is down. */
export class RemoteUnreachable extends RemoteError {
  override readonly name = 'RemoteUnreachable';
}

/** The remote's certificate does not chain to a trusted CA, or does not name its host. */
export class RemoteUntrusted extends RemoteError {
  override readonly name = 'RemoteUntrusted';
}

/** The remote answered with an error status; `code`/`remoteMessage` when its body had our error shape. */
export class RemoteRefused extends RemoteError {
  override readonly name = 'RemoteRefused';
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
    readonly remoteMessage?: string,
  ) {
    super(message);
  }
}

/** The answer cannot be used: not JSON, over its size cap, not the expected shape, cut short. */
export class RemoteBroken extends RemoteError {
  override readonly name = 'RemoteBroken';
}
