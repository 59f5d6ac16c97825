import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A loopback TCP proxy to a port, whose line can be cut and mended: while cut, open connections
 * are dropped and new ones are closed at once, each refusal reported as an event (a client's
 * retry seen arriving), so a test of a lost connection waits for the retry itself.
 */
export interface CuttableProxy {
  port: number;
  cut(): void;
  mend(): void;
  /** Resolves at the next connection refused while cut. */
  nextRefusal(): Promise<void>;
  close(): Promise<void>;
}

export async function cuttableProxy(targetPort: number): Promise<CuttableProxy> {
  let cut = false;
  const open = new Set<Socket>();
  let waiting: Array<() => void> = [];
  const server: Server = createServer((client) => {
    if (cut) {
      client.destroy();
      const resolve = waiting;
      waiting = [];
      for (const r of resolve) r();
      return;
    }
    const upstream = connect(targetPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address !== null ? address.port : 0,
    cut() {
      cut = true;
      for (const socket of open) socket.destroy();
    },
    mend() {
      cut = false;
    },
    nextRefusal: () => new Promise<void>((resolve) => waiting.push(resolve)),
    close: () => new Promise<void>((resolve) => {
      for (const socket of open) socket.destroy();
      server.close(() => resolve());
    }),
  };
}
