import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { freePort, sleep } from '@vendor-review/worker-io';
import { InfraError } from './infra-error.ts';
import type { InfraLog } from './infra-log.ts';

/**
 * A server that could not bind its port because another process holds it. A server that cannot
 * bind port 0 and report its port is given a port that was free a moment before it binds; in
 * between, any other process (a test file running beside this one, any program on a user's
 * machine) may take it. Only this failure is worth another try.
 */
export class AddressInUseError extends InfraError {
  constructor(
    readonly port: number,
    message: string,
  ) {
    super(message);
  }
}

/** What a server prints when it cannot bind: Node's code, PostgreSQL's and Go's messages alike. */
export function mentionsAddressInUse(text: string): boolean {
  return /EADDRINUSE|address already in use/i.test(text);
}

export interface PortRaceOptions {
  /** The server in words, for the line that says a port was lost ("temporal: dev server"). */
  what: string;
  log: InfraLog;
  /** Tries in all. Default: 5. */
  attempts?: number;
}

/**
 * Starts a server on a port picked free a moment before, and again on a fresh one each time the
 * start fails with AddressInUseError, up to `attempts` tries, saying so in one line each time.
 * Any other failure is thrown at once: only a lost race is retried.
 */
export async function startOnFreePort<T>(start: (port: number) => Promise<T>, o: PortRaceOptions): Promise<T> {
  const attempts = o.attempts ?? 5;
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      return await start(port);
    } catch (err) {
      if (!(err instanceof AddressInUseError) || attempt >= attempts) throw err;
      o.log(
        `${o.what}: port ${err.port} was taken by another process before the server bound it; ` +
          `trying a fresh port (${attempt + 1} of ${attempts})`,
      );
    }
  }
}

/**
 * A restart must come back where its clients look for it, so a port taken while the server was
 * down is waited for (the taker may be a probe that lets go at once), never moved: up to
 * `waitMs`, then the last AddressInUseError is thrown.
 */
export async function startOnSamePort<T>(
  port: number,
  start: (port: number) => Promise<T>,
  o: { what: string; log: InfraLog; waitMs?: number },
): Promise<T> {
  const deadline = Date.now() + (o.waitMs ?? 5_000);
  let announced = false;
  for (;;) {
    try {
      return await start(port);
    } catch (err) {
      if (!(err instanceof AddressInUseError) || Date.now() >= deadline) throw err;
      if (!announced) {
        o.log(
          `${o.what}: port ${port} is held by another process; waiting up to ${(o.waitMs ?? 5_000) / 1000} s for it`,
        );
        announced = true;
      }
      await sleep(250);
    }
  }
}

/**
 * Whether process `pid` holds a socket listening on `port` (Linux: /proc), so that a readiness
 * probe never takes another server on that port for ours. null where it cannot be told (no /proc).
 */
export function listensOn(pid: number, port: number): boolean | null {
  let tables: string[];
  try {
    tables = ['/proc/net/tcp', '/proc/net/tcp6'].map((f) => {
      try {
        return readFileSync(f, 'utf8');
      } catch {
        return '';
      }
    });
    readdirSync(`/proc/${pid}/fd`);
  } catch {
    return null;
  }
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const line of tables.join('\n').split('\n')) {
    const cols = line.trim().split(/\s+/);
    // local_address is "IP:PORT" in hex; state 0A is LISTEN; column 9 is the socket's inode.
    if (cols[1]?.endsWith(`:${hex}`) && cols[3] === '0A' && cols[9]) inodes.add(cols[9]);
  }
  if (inodes.size === 0) return false;
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      let target: string;
      try {
        target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode && inodes.has(inode)) return true;
    }
  } catch {
    return null;
  }
  return false;
}
