import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';

/**
 * The address a run's deployment is registered at, standing where a team puts a load balancer
 * (a Kubernetes Service) in front of its endpoint processes. The server pins an invocation to
 * the deployment it started on and retries it at that address, so a replacement endpoint must be
 * reachable there: the router hands each new connection to the newest endpoint of the run that
 * accepts it (the one a supervisor started last), and an endpoint that died leaves a socket
 * nobody answers on, which it skips. A frozen endpoint's socket still accepts connections; it is
 * skipped only once a newer endpoint exists, as a load balancer skips a pod that failed its checks.
 */
export class EndpointRouter {
  private readonly listeners = new Map<string, Promise<net.Server>>();
  private readonly sockets = new Set<net.Socket>();
  /** A short folder per service: a socket's path must stay within 107 bytes. */
  private readonly folders = new Map<string, string>();
  private seq = 0;

  constructor(
    private readonly dir: string,
    /** Where the server reaches this machine (127.0.0.1, or the host seen from a server in a container). */
    private readonly host: string,
  ) {
    mkdirSync(dir, { recursive: true });
  }

  /** A socket path for the next endpoint of `service`: newer than every earlier one. */
  nextSocket(service: string, worker: string): string {
    return join(this.folder(service), `${String(++this.seq).padStart(6, '0')}-${worker}.sock`);
  }

  private folder(service: string): string {
    let folder = this.folders.get(service);
    if (!folder) {
      folder = join(this.dir, String(this.folders.size + 1));
      mkdirSync(folder, { recursive: true });
      this.folders.set(service, folder);
    }
    return folder;
  }

  /** The deployment address of `service` (its listener, started on a free port on first use). */
  async deploymentUrl(service: string): Promise<string> {
    const port = ((await this.listening(service, 0)).address() as net.AddressInfo).port;
    return `http://${this.host}:${port}`;
  }

  /**
   * Serves `service` at the address its deployment was registered at by another process of the
   * harness (the lab starts a run in one command and its endpoints in another): the server will
   * only ever call that address. Started at once; a failure shows as the endpoint's registration
   * failing, in its own words.
   */
  adopt(service: string, url: string): void {
    void this.listening(service, Number(new URL(url).port)).catch(() => undefined);
  }

  private listening(service: string, port: number): Promise<net.Server> {
    let listening = this.listeners.get(service);
    if (!listening) {
      listening = this.listen(service, port);
      this.listeners.set(service, listening);
    }
    return listening;
  }

  private listen(service: string, port: number): Promise<net.Server> {
    const server = net.createServer((inbound) => void this.forward(service, inbound));
    const bind = this.host === '127.0.0.1' || this.host === 'localhost' ? '127.0.0.1' : '0.0.0.0';
    return new Promise((resolve, reject) => server.once('error', reject).listen(port, bind, () => resolve(server)));
  }

  private async forward(service: string, inbound: net.Socket): Promise<void> {
    this.sockets.add(inbound);
    inbound.on('close', () => this.sockets.delete(inbound));
    inbound.on('error', () => inbound.destroy());
    inbound.pause();
    const dir = this.folder(service);
    const candidates = readdirSync(dir).sort().reverse();
    for (const name of candidates) {
      const outbound = await connected(join(dir, name));
      if (!outbound) {
        rmSync(join(dir, name), { force: true }); // nobody will answer there again
        continue;
      }
      this.sockets.add(outbound);
      outbound.on('close', () => {
        this.sockets.delete(outbound);
        inbound.destroy();
      });
      outbound.on('error', () => outbound.destroy());
      inbound.on('close', () => outbound.destroy());
      inbound.pipe(outbound).pipe(inbound);
      inbound.resume();
      return;
    }
    inbound.destroy(); // no endpoint alive: the server backs off and tries again
  }

  /** Every run's address closed and every connection through it cut. */
  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await Promise.all(
      [...this.listeners.values()].map(async (l) => {
        const server = await l.catch(() => null);
        await new Promise((r) => (server ? server.close(r) : r(undefined)));
      }),
    );
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function connected(path: string): Promise<net.Socket | null> {
  return new Promise((resolve) => {
    const socket = net.connect(path);
    socket.once('connect', () => resolve(socket));
    socket.once('error', () => resolve(null));
  });
}
