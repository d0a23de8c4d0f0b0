import type { Benched } from './benched.ts';
import pg from 'pg';
import type { InProcessBench } from '@vendor-review/conformance';
import { summarize, type Summary } from './stats.ts';

/**
 * The units every overhead is stated in, measured in the same run on the same machine: one
 * PostgreSQL commit of a small row (an INSERT in its own transaction: a WAL flush, what a
 * checkpoint in `sync` cannot avoid) with a bare round trip (SELECT 1) beside it, for every
 * runtime; and each runtime's own unit where its bench has one (Temporal: a no-op activity).
 */
export interface Units {
  pgCommitUs: Summary;
  pgRoundTripUs: Summary;
  own: OwnUnit[];
}

export interface OwnUnit {
  runtime: string;
  /** `<runtime>:<id>`: what per-step rows key their multiples by. */
  key: string;
  label: string;
  us: Summary;
  /** Parts of it worth a row of their own. */
  parts: { label: string; us: Summary | null }[];
}

/** Each bench's own unit, measured on its in-process session. */
export async function measureOwnUnits(sessions: { b: Benched; s: InProcessBench }[]): Promise<OwnUnit[]> {
  const out: OwnUnit[] = [];
  for (const { b, s } of sessions) {
    const unit = b.bench.unit;
    if (unit === 'commit' || !s.measureUnit) continue;
    const m = await s.measureUnit();
    const us = summarize(m.us);
    if (!us) continue;
    out.push({
      runtime: b.info.name,
      key: `${b.info.name}:${unit.id}`,
      label: unit.label,
      us,
      parts: m.parts.map((p) => ({ label: p.label, us: summarize(p.us) })),
    });
  }
  return out;
}

const PROBE = 'bench_commit_probe';

export async function measurePg(
  databaseUrl: string,
  samples: number,
): Promise<Pick<Units, 'pgCommitUs' | 'pgRoundTripUs'>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`CREATE TABLE IF NOT EXISTS ${PROBE} (id bigserial PRIMARY KEY, note text NOT NULL)`);
    const commits: number[] = [];
    const trips: number[] = [];
    const warmup = Math.min(20, samples);
    for (let i = 0; i < samples + warmup; i++) {
      // Interleaved, so a noisy moment lands on both.
      let t = performance.now();
      await client.query(`INSERT INTO ${PROBE} (note) VALUES ($1)`, [`probe ${i}`]);
      const commit = (performance.now() - t) * 1000;
      t = performance.now();
      await client.query('SELECT 1');
      const trip = (performance.now() - t) * 1000;
      if (i >= warmup) {
        commits.push(commit);
        trips.push(trip);
      }
    }
    return { pgCommitUs: summarize(commits)!, pgRoundTripUs: summarize(trips)! };
  } finally {
    await client.query(`DROP TABLE IF EXISTS ${PROBE}`).catch(() => undefined);
    await client.end();
  }
}
