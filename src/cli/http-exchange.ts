import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface Exchange {
  status: number;
  statusText: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** As long as fetch (undici) waits for an answer's headers and between its chunks by default. */
const IDLE_TIMEOUT_MS = 300_000;

/**
 * One request with a small text body and its whole answer, through node:http. The first `fetch`
 * of a process loads undici and compiles its WebAssembly parser, which cost a client command
 * about half of its run; a JSON request needs none of that. A failure is thrown as fetch throws
 * it (`TypeError: fetch failed` whose cause is the socket's error), so that callers classify both
 * alike.
 */
export function exchange(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string | undefined },
): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const fail = (error: unknown): void => reject(new TypeError('fetch failed', { cause: error }));
    try {
      // An unparsable URL or another scheme throws here, where fetch would reject.
      const target = new URL(url);
      const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
      const headers =
        init.body === undefined
          ? init.headers
          : { ...init.headers, 'Content-Length': String(Buffer.byteLength(init.body)) };
      const request = send(target, { method: init.method, headers, timeout: IDLE_TIMEOUT_MS }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            statusText: response.statusMessage ?? '',
            headers: response.headers,
            body,
          }),
        );
        response.on('error', fail);
      });
      request.on('timeout', () =>
        request.destroy(
          Object.assign(new Error(`no answer within ${IDLE_TIMEOUT_MS / 1000} s`), { code: 'ETIMEDOUT' }),
        ),
      );
      request.on('error', fail);
      request.end(init.body);
    } catch (error) {
      fail(error);
    }
  });
}
