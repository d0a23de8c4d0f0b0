import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WorkerSpec } from './worker-process.ts';

/**
 * A network partition the harness controls, for one worker: every address the worker reaches over
 * TCP (PostgreSQL, the runtime's server), except those it must keep (the world: the model, the
 * tracker and the mailbox stay reachable), is replaced in its environment by a proxy on loopback;
 * every socket it listens on for its server (`WorkerSpec.listens`) gets a proxy in front. `cut()`
 * resets every connection through them and refuses new ones, as a switch that drops the worker's
 * side of the network would; `heal()` lets new connections through again. No root, no iptables:
 * the worker cannot tell this from a network that broke.
 */
export class NetworkCut {
  private readonly listeners: net.Server[] = [];
  /** Each connection through the cut: the worker's side and the far side. */
  private readonly pairs = new Set<readonly [net.Socket, net.Socket]>();
  private readonly dir = mkdtempSync(join(tmpdir(), 'cut-'));
  private seq = 0;
  #cut = false;
  /** Connections reset by a cut, or refused while cut. */
  readonly counts = { reset: 0, refused: 0 };

  /**
   * The worker's spec with its addresses behind this cut: the values of its environment that name
   * a host and port (a URL, `host:port`), except the `keep` URLs' host and port and its `advertises`
   * keys, and its `listens` keys' socket paths. Returns the spec to start the worker with.
   */
  async route(spec: WorkerSpec, o: { keep: readonly string[] }): Promise<WorkerSpec> {
    const kept = new Set(o.keep.map((u) => new URL(u).host));
    const proxies = new Map<string, string>();
    const env: WorkerSpec['env'] = {};
    for (const [key, value] of Object.entries(spec.env)) {
      if (value === undefined) continue;
      if (spec.advertises?.includes(key)) {
        env[key] = value;
        continue;
      }
      if (spec.listens?.includes(key)) {
        env[key] = await this.inFront(value);
        continue;
      }
      let routed = value;
      for (const address of addressesIn(value)) {
        if (kept.has(address)) continue;
        if (!proxies.has(address)) proxies.set(address, await this.towards(address));
        routed = routed.replace(address, proxies.get(address)!);
      }
      env[key] = routed;
    }
    return { ...spec, env };
  }

  get isCut(): boolean {
    return this.#cut;
  }

  /** Resets every connection through the cut and refuses new ones until `heal()`. */
  cut(): void {
    this.#cut = true;
    for (const pair of this.pairs) {
      this.counts.reset++;
      for (const s of pair) reset(s);
    }
    this.pairs.clear();
  }

  heal(): void {
    this.#cut = false;
  }

  async close(): Promise<void> {
    this.cut();
    await Promise.all(this.listeners.map((l) => new Promise((r) => l.close(r))));
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** A proxy on loopback towards `address` (host:port); its own host:port. */
  private async towards(address: string): Promise<string> {
    const { hostname, port } = new URL(`tcp://${address}`);
    const host = hostname.replace(/^\[|\]$/g, '');
    const server = await this.listen(['127.0.0.1', 0], () => net.connect(Number(port), host));
    return `127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  }

  /** A proxy listening at `path` (where the runtime's server reaches the worker); the path the worker listens on instead. */
  private async inFront(path: string): Promise<string> {
    const behind = join(this.dir, `${++this.seq}.sock`);
    await this.listen([path], () => net.connect(behind));
    return behind;
  }

  private async listen(at: [string, number] | [string], connect: () => net.Socket): Promise<net.Server> {
    const server = net.createServer((inbound) => this.forward(inbound, connect));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      if (at.length === 1) server.listen(at[0], resolve);
      else server.listen(at[1], at[0], resolve);
    });
    this.listeners.push(server);
    return server;
  }

  private forward(inbound: net.Socket, connect: () => net.Socket): void {
    if (this.#cut) {
      this.counts.refused++;
      reset(inbound);
      return;
    }
    const outbound = connect();
    const pair = [inbound, outbound] as const;
    this.pairs.add(pair);
    for (const [a, b] of [pair, [outbound, inbound] as const]) {
      a.on('error', () => b.destroy());
      a.on('close', () => {
        this.pairs.delete(pair);
        b.destroy();
      });
    }
    inbound.pipe(outbound).pipe(inbound);
  }
}

/** The host:port pairs a value names: `postgres://u@127.0.0.1:5432/db`, `http://localhost:8080`, `127.0.0.1:7233`. */
export function addressesIn(value: string): string[] {
  const found = value.match(/(?<=^|\/\/|@)(?:\[[0-9a-f:.]+\]|[a-z0-9.-]+):\d{1,5}(?=$|[/?#,])/gi) ?? [];
  return [...new Set(found)];
}

/** A TCP connection is reset (RST), as a dropped route shows; a Unix socket has no reset, only a close. */
function reset(s: net.Socket): void {
  if (s.remotePort === undefined) s.destroy();
  else s.resetAndDestroy();
}
