/**
 * For tests of a server's start: a thief that takes the port a server was given at the worst
 * moment, right after the pick (`pick`) or right after the server checked the port was free
 * (`check`). Wired in with
 *
 *   vi.mock('@vendor-review/worker-io', async (real) =>
 *     (await import('@vendor-review/testbed/port-thief')).stealing(await real()));
 *
 * so a server's own code picks and checks its port as always, and loses it as it could to any
 * other process. Imports nothing of ours: it stands in for the module it wraps.
 */
import net from 'node:net';

export const thief = {
  /** What to do at each pick, in order; `pass` (or nothing left) lets it be. */
  plan: [] as ('pass' | 'pick' | 'check')[],
  /** Every port it took, in order. */
  stolen: [] as number[],
  /** How many ports were picked. */
  picks: 0,
};
const held: net.Server[] = [];
const afterCheck = new Set<number>();

/** Takes `port` on 127.0.0.1 and holds it until released. */
export async function hold(port: number): Promise<void> {
  const server = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  held.push(server);
  thief.stolen.push(port);
}

/** Lets go of every port held, and forgets the plan. */
export async function releaseAll(): Promise<void> {
  await Promise.all(held.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
  thief.plan = [];
  thief.stolen = [];
  thief.picks = 0;
  afterCheck.clear();
}

/** A log that keeps its lines and lets go of what the thief holds once a server says it waits for it. */
export function letGoOnceWaitedFor(lines: string[]): (line: string) => void {
  return (line) => {
    lines.push(line);
    if (/ is held by another process; waiting /.test(line)) for (const s of held.splice(0)) s.close();
  };
}

interface PortProbes {
  freePort(): Promise<number>;
  tcpConnect(host: string, port: number, timeoutMs: number): Promise<void>;
}

/** The module `real` with its port pick and its connection check in the thief's hands. */
export function stealing<M extends PortProbes>(real: M): M {
  return {
    ...real,
    freePort: async () => {
      const port = await real.freePort();
      thief.picks++;
      const when = thief.plan.shift() ?? 'pass';
      if (when === 'pick') await hold(port);
      if (when === 'check') afterCheck.add(port);
      return port;
    },
    tcpConnect: async (host: string, port: number, timeoutMs: number) => {
      try {
        return await real.tcpConnect(host, port, timeoutMs);
      } finally {
        if (afterCheck.delete(port)) await hold(port);
      }
    },
  };
}
