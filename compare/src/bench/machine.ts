import os from 'node:os';
import pg from 'pg';
import { runtimeVersions } from '../runtimes.ts';

/** Where and with what the figures were taken: they are only comparable with this beside them. */
export interface Machine {
  hostname: string;
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  platform: string;
  /** 1-minute load average when the bench started and when it ended: the machine is shared. */
  loadAverage: { start: number; end: number | null };
}

export interface Versions {
  node: string;
  /** Per runtime, the libraries it ran on as installed. */
  runtimes: Record<string, Record<string, string | null>>;
  /** Each runtime server's version as it reports it, by its label. */
  servers: Record<string, string | null>;
  postgres: string | null;
}

export function machine(): Machine {
  const cpus = os.cpus();
  return {
    hostname: os.hostname(),
    cpus: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 1024 ** 3),
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    loadAverage: { start: Math.round(os.loadavg()[0]! * 100) / 100, end: null },
  };
}

export async function versions(
  databaseUrl: string,
  servers: Record<string, string | null>,
  runtimes: readonly string[],
): Promise<Versions> {
  let postgres: string | null = null;
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
    postgres = String((await client.query('SHOW server_version')).rows[0]?.server_version ?? '').split(' ')[0] || null;
  } catch {
    postgres = null;
  } finally {
    await client.end().catch(() => undefined);
  }
  return { node: process.versions.node, runtimes: await runtimeVersions(runtimes), servers, postgres };
}

/** Every version in one list, library by library: `{ node, postgres, '@langchain/langgraph': '1.7.3', … }`. */
export function flatVersions(v: Versions): Record<string, string | null> {
  return {
    node: v.node,
    ...Object.assign({}, ...Object.values(v.runtimes)),
    ...Object.fromEntries(Object.entries(v.servers).map(([label, version]) => [label.toLowerCase(), version])),
    postgresql: v.postgres,
  };
}
