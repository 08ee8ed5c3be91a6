import { createReadStream, createWriteStream, statSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { pipeline } from 'node:stream/promises';

export interface HttpAnswer {
  status: number;
  body: string;
}

function send(
  url: string,
  options: { method: string; headers: Record<string, string | number> },
  write: (req: ReturnType<typeof request>) => void,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    // agent: false: a fresh connection each time, nothing kept alive to hold the server open.
    const req = request(url, { ...options, agent: false }, resolve);
    req.on('error', reject);
    write(req);
  });
}

async function readBody(response: IncomingMessage): Promise<string> {
  let body = '';
  response.setEncoding('utf8');
  for await (const chunk of response) body += chunk as string;
  return body;
}

export async function getJson(url: string, token?: string): Promise<HttpAnswer> {
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  const response = await send(url, { method: 'GET', headers }, (req) => req.end());
  return { status: response.statusCode ?? 0, body: await readBody(response) };
}

/** Streams a GET's body to a file; fails unless the answer is 200. Resolves the bytes written. */
export async function downloadToFile(url: string, token: string, file: string): Promise<number> {
  const response = await send(url, { method: 'GET', headers: { Authorization: `Bearer ${token}` } }, (req) =>
    req.end(),
  );
  if (response.statusCode !== 200) {
    throw new Error(`GET ${url} answered ${response.statusCode}: ${await readBody(response)}`);
  }
  await pipeline(response, createWriteStream(file));
  return statSync(file).size;
}

/** POSTs a file as the body, streamed from disk, and resolves the answer. */
export async function postFile(url: string, token: string, file: string, contentType: string): Promise<HttpAnswer> {
  const headers = {
    Authorization: `Bearer ${token}`,
    'Content-Type': contentType,
    'Content-Length': statSync(file).size,
  };
  const response = await send(url, { method: 'POST', headers }, (req) => {
    // A failed read destroys the request, whose 'error' rejects the answer.
    pipeline(createReadStream(file), req).catch(() => undefined);
  });
  return { status: response.statusCode ?? 0, body: await readBody(response) };
}

export async function postJson(url: string, token: string, body: unknown): Promise<HttpAnswer> {
  const text = JSON.stringify(body);
  const headers = {
    Authorization: `Bearer ${token}`,
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
  };
  const response = await send(url, { method: 'POST', headers }, (req) => req.end(text));
  return { status: response.statusCode ?? 0, body: await readBody(response) };
}
