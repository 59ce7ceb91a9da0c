// A TCP relay between a client and a server, for tests that need a network drop they control: `cut()` closes
// every connection and refuses new ones, as a dead server or a broken link would; `open()` listens again on the
// same port; `retarget()` sends the connections made after it to another server, as a load balancer moving a
// client to another node would.
import net from 'node:net';

export class Relay {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  private target: URL;
  /** The target origin of each connection relayed so far, in order: which server a client actually reached. */
  readonly upstreams: string[] = [];

  /** `port` 0 picks a free port on the first `open()`; later opens reuse it, so clients keep their address. */
  constructor(target: string | URL, public port = 0) {
    this.target = new URL(target);
  }

  /** The relay's address as an http URL, for clients to connect to instead of the target. */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Connections made from now on go to `target`; open ones stay where they are until cut. */
  retarget(target: string | URL): void {
    this.target = new URL(target);
  }

  async open(): Promise<void> {
    if (this.server) return;
    const server = net.createServer((client) => {
      this.upstreams.push(this.target.origin);
      const upstream = net.connect(Number(this.target.port || 80), this.target.hostname);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as net.AddressInfo).port;
  }

  async cut(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  }
}
