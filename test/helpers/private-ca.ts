import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PrivateCa {
  /** The CA's certificate: what a client trusts (`--ca`). */
  caPem: string;
  /** A server certificate for `localhost` and 127.0.0.1 signed by the CA, and its key. */
  cert: string;
  key: string;
}

/**
 * A private CA and a server certificate it signed, made with openssl in a temporary directory that
 * is removed at once; valid one day. A client trusts the server only when given `caPem`.
 */
export function privateCa(): PrivateCa {
  const dir = mkdtempSync(join(tmpdir(), 'scandesk-ca-'));
  const at = (name: string): string => join(dir, name);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  const run = (args: string[]): void => void execFileSync('openssl', args, { stdio: 'ignore' });
  try {
    run([
      ...['req', '-x509', ...ec, '-keyout', at('ca.key'), '-out', at('ca.pem'), '-days', '1'],
      ...['-subj', '/CN=Scandesk test CA', '-addext', 'basicConstraints=critical,CA:TRUE'],
      ...['-addext', 'keyUsage=critical,keyCertSign,cRLSign'],
    ]);
    run(['req', ...ec, '-keyout', at('server.key'), '-out', at('server.csr'), '-subj', '/CN=localhost']);
    writeFileSync(
      at('server.ext'),
      'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n',
    );
    run([
      ...['x509', '-req', '-in', at('server.csr'), '-CA', at('ca.pem'), '-CAkey', at('ca.key')],
      ...['-CAcreateserial', '-out', at('server.pem'), '-days', '1', '-extfile', at('server.ext')],
    ]);
    return {
      caPem: readFileSync(at('ca.pem'), 'utf8'),
      cert: readFileSync(at('server.pem'), 'utf8'),
      key: readFileSync(at('server.key'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
