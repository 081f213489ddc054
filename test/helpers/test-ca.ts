// A certificate authority made at test time with openssl, and a server certificate it signed
// for 127.0.0.1 and localhost. Receivers use the certificate; the worker trusts the CA through
// NODE_EXTRA_CA_CERTS (child processes) or the sender's `ca` option (in-process workers).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface TestCa {
  dir: string;
  /** The CA certificate file, for NODE_EXTRA_CA_CERTS. */
  caFile: string;
  caPem: string;
  keyPem: string;
  certPem: string;
}

let created: TestCa | undefined;

function openssl(args: string[], cwd: string): void {
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** One CA per test process, in a temp directory removed at exit. */
export function testCa(): TestCa {
  if (created) return created;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-ca-'));
  const ecKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(
    [
      'req',
      '-x509',
      ...ecKey,
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-days',
      '2',
      '-subj',
      '/CN=Tributary Test CA',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ],
    dir,
  );
  openssl(['req', ...ecKey, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost'], dir);
  fs.writeFileSync(
    path.join(dir, 'server.ext'),
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n',
  );
  openssl(
    [
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'server.pem',
      '-days',
      '2',
      '-extfile',
      'server.ext',
    ],
    dir,
  );
  process.once('exit', () => {
    fs.rmSync(dir, { recursive: true, force: true });
  });
  created = {
    dir,
    caFile: path.join(dir, 'ca.pem'),
    caPem: fs.readFileSync(path.join(dir, 'ca.pem'), 'utf8'),
    keyPem: fs.readFileSync(path.join(dir, 'server.key'), 'utf8'),
    certPem: fs.readFileSync(path.join(dir, 'server.pem'), 'utf8'),
  };
  return created;
}
