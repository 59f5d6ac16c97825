import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { TLSSocket } from 'node:tls';

/** PostgreSQL's SSLRequest: length 8, then the code 80877103 (1234 << 16 | 5679). */
const SSL_REQUEST = Buffer.from([0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f]);

/**
 * A loopback TLS front for a PostgreSQL server without TLS: it answers a client's SSLRequest with
 * `S`, does the TLS handshake with a self-signed certificate for 127.0.0.1 (made here with the
 * machine's openssl, as test/serve/sign-in.test.ts makes its own), and passes the decrypted
 * protocol on to the real server. A client that trusts `certFile` gets a working store over TLS;
 * one that does not fails the handshake on the certificate.
 */
export interface PgTlsProxy {
  port: number;
  /** The certificate (PEM), the CA a client must name to trust it (`sslrootcert=`). */
  certFile: string;
  close(): Promise<void>;
}

export async function pgTlsProxy(targetPort: number, dir: string): Promise<PgTlsProxy> {
  const certFile = join(dir, 'pg-cert.pem');
  const keyFile = join(dir, 'pg-key.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', keyFile, '-out', certFile], { stdio: 'ignore' });
  const cert = readFileSync(certFile);
  const key = readFileSync(keyFile);
  const open = new Set<Socket>();
  const track = (socket: Socket): void => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.on('error', () => undefined);
  };
  const server: Server = createServer((client) => {
    track(client);
    client.once('data', (first: Buffer) => {
      if (!first.equals(SSL_REQUEST)) return void client.destroy();
      client.write('S');
      const secure = new TLSSocket(client, { isServer: true, cert, key });
      const upstream = connect(targetPort, '127.0.0.1');
      track(secure);
      track(upstream);
      secure.pipe(upstream);
      upstream.pipe(secure);
      secure.on('close', () => upstream.destroy());
      upstream.on('close', () => secure.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address !== null ? address.port : 0,
    certFile,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
