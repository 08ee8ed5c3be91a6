import { describe, expect, it } from 'vitest';
import { asNetworkError, NetworkError } from '../../../../src/renderer/src/lib/network-error';

describe('asNetworkError', () => {
  it('turns fetch giving up without an answer into one message naming the server', () => {
    const failure = new TypeError('Failed to fetch');
    const error = asNetworkError(failure, 'http://127.0.0.1:4790');
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).message).toBe("Can't reach the Scandesk server at http://127.0.0.1:4790");
    expect((error as NetworkError).origin).toBe('http://127.0.0.1:4790');
    expect((error as NetworkError).cause).toBe(failure);
  });

  it('leaves a request the page itself aborted as it is', () => {
    const aborted = new DOMException('The user aborted a request.', 'AbortError');
    expect(asNetworkError(aborted, 'http://127.0.0.1:4790')).toBe(aborted);
  });
});
