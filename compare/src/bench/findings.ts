import { literal } from '../report/document.ts';
import { flatVersions } from './machine.ts';
import { bytes, ms, pct, times, us } from './format.ts';
import type { BenchReport } from './report.ts';
import { PROJECT_TO } from './storage.ts';

/**
 * "What durability costs", in sentences built from this run's figures only: the text bench.md
 * opens with, and what a README section is made from. Nothing here is a number typed by hand.
 */
export function provenanceLine(r: BenchReport): string {
  const m = r.meta.machine;
  const v = r.meta.versions;
  return (
    `Measured ${r.meta.startedAt.slice(0, 16).replace('T', ' ')} UTC by \`pnpm bench${r.meta.preset === 'quick' ? '' : ` --${r.meta.preset}`}${r.meta.instrumented ? ' --instrument' : ''}\` ` +
    `on ${m.cpus} × ${literal(m.cpuModel)}, ${m.memoryGiB} GiB (${literal(m.platform)}), shared: load average ${m.loadAverage.start} at the start, ${m.loadAverage.end ?? '—'} at the end; ` +
    `${Object.entries(flatVersions(v))
      .map(([k, x]) => literal(`${k} ${x ?? '?'}`))
      .join(', ')}; wall time ${ms(r.meta.wallTimeMs)}.`
  );
}

function perStep(r: BenchReport): string[] {
  const p = r.perStep;
  if (!p) return [];
  const floor = p.rows.find((x) => x.kind === 'floor');
  const out: string[] = [];
  if (floor?.perStepUs)
    out.push(
      `**Per step** (a ${p.requirements}-requirement review, ${p.steps} steps, the world answering at once): the plain runner, no durability at all, takes ${us(floor.perStepUs.median)} a step.`,
    );
  // A sentence per runtime: the configurations its bench names for the findings, in its unit.
  for (const [runtime, facts] of Object.entries(r.meta.benched)) {
    const said = p.rows
      .filter((x) => x.runtime === runtime && x.finding !== null && x.overheadUs !== null)
      .map((x) => {
        const m = facts.unit.key === null ? x.overheadInCommits : (x.overheadInUnits[facts.unit.key] ?? null);
        return `${x.finding} adds ${us(x.overheadUs)} (${times(m)} ${facts.unit.one})`;
      });
    if (said.length) out.push(`${said.join(', ')} per step.`);
  }
  const states = p.rows
    .filter((x) => x.stateShare !== null)
    .map((x) => `${x.label.replace(/ \(.*\)$/, '')} ${pct(x.stateShare)}`);
  if (states.length)
    out.push(
      `What carrying our state adds to the runtime's own cost (the review's graph / workflow with its steps replayed, against a bare one of the same shape): ${states.join('; ')}.`,
    );
  const shares = p.rows
    .filter((x) => x.ourShare !== null)
    .map((x) => `${x.label.replace(/ \(.*\)$/, '')} ${pct(x.ourShare)}`);
  if (shares.length)
    out.push(
      `What our code around the runtime adds to what the runtime costs for our data (our code on the same replayed steps, or the review less the floor, against the replay): ${shares.join('; ')}.`,
    );
  return out;
}

function throughput(r: BenchReport): string[] {
  const t = r.throughput;
  if (!t?.length) return [];
  const top = Math.max(...t.map((c) => c.concurrency));
  const at = t.filter((c) => c.concurrency === top);
  const parts = at.map(
    (c) =>
      `${c.runtime} ${c.mode} on ${c.processes} process${c.processes > 1 ? 'es' : ''}: ${c.reviewsPerSecond ?? '—'} reviews/s, ` +
      `${c.cpuSecondsPerReview.total ?? '—'} CPU s and ${c.pgCommitsPerReview ?? '—'} commits per review` +
      (c.historyEventsPerReview !== null ? `, ${c.historyEventsPerReview} history events` : ''),
  );
  return [`**Throughput** with ${top} reviews at once: ${parts.join('; ')}.`];
}

function storage(r: BenchReport): string[] {
  const s = r.storage;
  if (!s) return [];
  const largest = Math.max(...s.sizes);
  const cells = s.cells.filter((c) => c.ok && c.requirements === largest && c.pagesPerRequirement === null);
  const out = [
    `**Storage** of one finished ${largest}-requirement run: ${cells
      .map(
        (c) =>
          `${c.runtime} ${c.mode} ${bytes(c.bytes)}` +
          (c.rows !== undefined ? ` in ${c.rows} rows` : '') +
          (c.events !== undefined ? ` in ${c.events} events, largest payload ${bytes(c.largestPayloadBytes)}` : ''),
      )
      .join('; ')}.`,
  ];
  const proj = s.projections.map((p) => {
    const l = s.limits[p.runtime];
    const limits = l
      ? ` (the ${bytes(l.payloadBytes)} payload limit at ${p.requirementsAtPayloadLimit ?? 'never'}, the history's ${bytes(l.historyBytes)} at ${p.requirementsAtHistoryLimit ?? 'never'}, ${l.historyEvents} events at ${p.requirementsAtEventLimit ?? 'never'} requirements)`
      : '';
    return `${p.runtime} ${p.mode} ${bytes(p.bytesAt80)}${limits}`;
  });
  if (proj.length) out.push(`Projected to ${PROJECT_TO} requirements: ${proj.join('; ')}.`);
  return out;
}

/** Per knob: the shortest setting no live worker lost a run at under load, and what it recovers in. */
export function recommendations(r: BenchReport): string[] {
  const rec = r.recovery;
  if (!rec) return [];
  const out: string[] = [];
  const knobs = [...new Set(rec.points.map((p) => `${p.runtime}|${p.knob}`))];
  for (const k of knobs) {
    const [runtime, knob] = k.split('|') as [string, string];
    const phrase = r.meta.benched[runtime]?.knobs.find((x) => x.name === knob)?.phrase ?? knob;
    const points = rec.points.filter((p) => p.runtime === runtime && p.knob === knob).sort((a, b) => a.value - b.value);
    const loaded = rec.takeovers.filter((t) => t.runtime === runtime && t.knob === knob);
    // The shortest loaded setting from which on upwards no live worker lost a run.
    let safeFrom: number | null = null;
    for (const t of [...loaded].sort((a, b) => b.value - a.value)) {
      if (t.lost > 0) break;
      safeFrom = t.value;
    }
    const from = safeFrom;
    const safe = from === null ? undefined : points.find((p) => p.value >= from);
    // A replacement must start before it can make progress, whatever the timeout says.
    const start = r.throughput?.find((c) => c.runtime === runtime && c.processes === 1)?.workerStartMs?.median;
    const lostAt = loaded.filter((t) => t.lost > 0).map((t) => `${ms(t.value)} (${t.lost}/${t.runs} runs lost)`);
    const trade = points.map((p) => `${ms(p.value)} → ${p.recoveryMs ? ms(p.recoveryMs.median) : '—'}`).join(', ');
    out.push(
      `${runtime}: crash → progress by ${phrase}: ${trade}` +
        (start !== undefined
          ? ` (a replacement worker takes ${ms(start)} to start: no setting recovers faster).`
          : '.') +
        (lostAt.length
          ? ` Under load a live worker lost runs at ${lostAt.join(', ')}.`
          : loaded.length
            ? ' Under load no live worker lost a run at any setting tried.'
            : '') +
        (safe
          ? ` Recommended: ${phrase} of ${ms(safe.value)} (recovery ${safe.recoveryMs ? ms(safe.recoveryMs.median) : '—'}), the shortest setting no live worker lost a run at.`
          : loaded.length
            ? ''
            : ' (not tried under load in this run)'),
    );
  }
  return out;
}

function harness(r: BenchReport): string[] {
  const h = r.harness;
  if (!h) return [];
  const parts = h.byRuntime.map((b) => `${b.runtime} ${(b.crashCellSeconds + b.hazardSeconds).toFixed(0)} cell-s`);
  return [
    `**The harness**: the default \`pnpm compare\` took ${ms(h.wallMs)}: ${ms(h.infrastructureMs)} bringing up its infrastructure and bundles, ${ms(h.cellsMs)} of cells (${parts.join(', ')}; four at a time), ${ms(h.tailMs)} for the report and teardown.`,
  ];
}

export function findings(r: BenchReport): string[] {
  return [
    ...perStep(r),
    ...throughput(r),
    ...storage(r),
    ...recommendations(r).map((x) => `**Recovery**, ${x}`),
    ...harness(r),
  ];
}
