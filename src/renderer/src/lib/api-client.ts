import { ServerError } from '../../../shared/api/server-error';
import { attachmentName } from './attachment-name';
import { asNetworkError, NetworkError } from './network-error';

export { NetworkError, ServerError };

type Query = Record<string, string | number | boolean | undefined | null>;

export function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

async function toServerError(response: Response): Promise<ServerError> {
  const body: unknown = await response.json().catch(() => undefined);
  return ServerError.fromBody(response.status, body, `the server answered ${response.status} ${response.statusText}`);
}

/** fetch, with "no answer at all" told apart from every answer as a NetworkError. */
export async function send(path: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(path, init);
  } catch (error) {
    throw asNetworkError(error, window.location.origin);
  }
}

/**
 * The renderer talks to the server only through here: same origin, authenticated by the session
 * cookie, every answer that is an error turned into a ServerError with the server's message, and
 * no answer into a NetworkError.
 */
export async function api<T>(method: string, path: string, body?: unknown, init: RequestInit = {}): Promise<T> {
  const response = await send(path, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    ...init,
  });
  if (!response.ok) throw await toServerError(response);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

export const apiGet = <T>(path: string, query?: Query): Promise<T> => api<T>('GET', withQuery(path, query));

/**
 * Uploads a file with progress (fetch has no upload progress): used for evidence imports.
 * Resolves with the parsed JSON body; rejects with an ServerError carrying the server's reason.
 */
export function uploadWithProgress<T>(
  path: string,
  file: Blob,
  contentType: string,
  onProgress: (sent: number, total: number) => void,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', path);
    request.withCredentials = true;
    request.setRequestHeader('Content-Type', contentType);
    request.upload.onprogress = (event) => onProgress(event.loaded, event.lengthComputable ? event.total : file.size);
    request.onerror = () => reject(new NetworkError(window.location.origin));
    request.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(request.responseText);
      } catch {
        body = undefined;
      }
      if (request.status >= 200 && request.status < 300) resolve(body as T);
      else reject(ServerError.fromBody(request.status, body, `the server answered ${request.status}`));
    };
    request.send(file);
  });
}

/**
 * POSTs `body` and saves the file the server answers (an evidence package, say) as the browser's
 * download, under the server's filename. `onChunk` sees the bytes as they arrive, for progress.
 */
export async function apiDownload(
  path: string,
  body: unknown,
  fallbackName: string,
  onChunk?: (chunk: Uint8Array) => void,
): Promise<string> {
  const response = await send(path, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw await toServerError(response);
  const name = attachmentName(response.headers.get('Content-Disposition'), fallbackName);
  const url = URL.createObjectURL(onChunk ? await readAll(response, onChunk) : await response.blob());
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = name;
    link.click();
  } finally {
    // The click has handed the blob to the download; the URL may go once the event loop turns.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
  return name;
}

async function readAll(response: Response, onChunk: (chunk: Uint8Array) => void): Promise<Blob> {
  const type = response.headers.get('Content-Type') ?? '';
  if (!response.body) return response.blob();
  const parts: Uint8Array<ArrayBuffer>[] = [];
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    onChunk(value);
  }
  return new Blob(parts, { type });
}
