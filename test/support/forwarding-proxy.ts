// A reverse proxy for tests: forwards every request to a target and appends the address it was reached from to
// X-Forwarded-For, as nginx's $proxy_add_x_forwarded_for does. Every other header, Host and whatever X-Forwarded-*
// the client wrote included, passes unchanged, so forged values reach the server exactly as a client sent them.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export class ForwardingProxy {
  private readonly server: http.Server;

  /** `localAddress`: the loopback address the proxy connects to the target from, which the next hop appends. */
  private constructor(target: string, localAddress: string | undefined) {
    this.server = http.createServer((request, response) => {
      const forwardedFor = [request.headers['x-forwarded-for'], request.socket.remoteAddress].filter(Boolean).join(', ');
      const upstream = http.request(new URL(request.url ?? '/', target), {
        method: request.method,
        headers: { ...request.headers, 'x-forwarded-for': forwardedFor },
        localAddress,
        // A connection per request: nothing lingers to the target once a test stops it.
        agent: false,
      }, (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      });
      upstream.on('error', () => response.destroy());
      request.pipe(upstream);
    });
  }

  /** Listens on 127.0.0.1 at a free port. */
  static async start(target: string, options: { localAddress?: string } = {}): Promise<ForwardingProxy> {
    const proxy = new ForwardingProxy(target, options.localAddress);
    await new Promise<void>((resolve, reject) => {
      proxy.server.once('error', reject);
      proxy.server.listen(0, '127.0.0.1', () => resolve());
    });
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
