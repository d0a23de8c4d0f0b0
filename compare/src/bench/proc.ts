import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';

/**
 * CPU time from the kernel's own accounting (/proc), for processes this benchmark does not run
 * in-process: the worker processes (their time is added to ours once they are reaped), the
 * PostgreSQL server (the postmaster, its live backends, and the backends that have exited) and a
 * runtime's own server (its process, as its module reports it). Linux only; null elsewhere or when a process cannot be found.
 */
const TICK_MS = 10; // USER_HZ is 100 on every Linux the project runs on

interface Stat {
  ppid: number;
  utime: number;
  stime: number;
  cutime: number;
  cstime: number;
}

function stat(pid: number | 'self'): Stat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces: count fields after the last ')'.
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return {
      ppid: Number(f[1]),
      utime: Number(f[11]),
      stime: Number(f[12]),
      cutime: Number(f[13]),
      cstime: Number(f[14]),
    };
  } catch {
    return null;
  }
}

/** CPU of one live process so far, in ms. */
export function cpuMs(pid: number): number | null {
  const s = stat(pid);
  return s ? (s.utime + s.stime) * TICK_MS : null;
}

/** CPU of this process's children that have exited and been reaped (our worker processes), in ms. */
export function reapedChildrenCpuMs(): number {
  const s = stat('self');
  return s ? (s.cutime + s.cstime) * TICK_MS : 0;
}

function pids(): number[] {
  try {
    return readdirSync('/proc')
      .filter((n) => /^\d+$/.test(n))
      .map(Number);
  } catch {
    return [];
  }
}

/** A server's CPU: its own, its live children's, and its exited children's, in ms. */
export function treeCpuMs(root: number): number | null {
  const s = stat(root);
  if (!s) return null;
  let total = s.utime + s.stime + s.cutime + s.cstime;
  for (const pid of pids()) {
    const c = stat(pid);
    if (c && c.ppid === root) total += c.utime + c.stime;
  }
  return total * TICK_MS;
}

/** The postmaster of the server behind `databaseUrl`: the parent of a backend we ask for its pid. */
export async function postmasterPid(databaseUrl: string): Promise<number | null> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const backend = Number((await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid);
    return stat(backend)?.ppid ?? null;
  } catch {
    return null;
  } finally {
    await client.end();
  }
}
