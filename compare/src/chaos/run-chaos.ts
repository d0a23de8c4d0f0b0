import path from 'node:path';
import { runtimeInfos } from '../runtimes.ts';
import { createProgress } from '../progress.ts';
import { writeReport } from '../report-files.ts';
import { CHAOS_RUNTIME_NAMES, type ChaosCliOptions } from './args.ts';
import { plannedRuns, type CampaignOptions } from './campaign-plan.ts';
import { runCampaign } from './campaign.ts';
import { clean } from './checker.ts';
import { toHtml } from '../report/render-html.ts';
import { chaosDocument } from './document.ts';
import { replayPlan } from './replay.ts';
import { buildResult } from './result.ts';
import { DEFAULT_SCHEDULE, type ScheduleOptions } from './schedule.ts';
import type { ChaosResult } from './schema.ts';

/**
 * What `pnpm chaos` does between its command line and its table: the campaign (or the replay of
 * one of its runs), chaos.json and chaos.html written, and whether the hardened variants are clean.
 */
export interface RunChaosDeps {
  log: (line: string) => void;
  command?: string;
  progress?: { tty: boolean; columns?: number; write: (text: string) => void };
  env?: NodeJS.ProcessEnv;
  /** Overrides of the schedule's shape (a test arms every run); the seed always comes from the options. */
  schedule?: Partial<Omit<ScheduleOptions, 'seed'>>;
}

export interface RunChaosResult {
  result: ChaosResult;
  files: { json: string; html: string };
  /** Why the report is not (all) in `files`, and where the results were saved instead; null when it is. */
  reportError: string | null;
  clean: boolean;
}

export async function runChaos(opts: ChaosCliOptions, deps: RunChaosDeps): Promise<RunChaosResult> {
  const schedule: ScheduleOptions = { ...DEFAULT_SCHEDULE, ...deps.schedule, seed: opts.seed };
  const command = deps.command ?? 'pnpm chaos';
  let campaign: CampaignOptions = {
    seed: opts.seed,
    runs: opts.runs,
    runtimes: opts.runtimes,
    variants: opts.variants,
    workers: opts.workers,
    boundMs: opts.boundSeconds * 1000,
    schedule,
    command,
    ...(deps.env ? { env: deps.env } : {}),
  };
  if (opts.run) {
    const replay = await replayPlan({
      seed: opts.seed,
      runId: opts.run,
      reportDir: opts.reportDir,
      runtimes: await runtimeInfos(CHAOS_RUNTIME_NAMES),
    });
    deps.log(`chaos: replaying ${opts.run} (seed ${opts.seed}): ${replay.source}`);
    campaign = {
      ...campaign,
      runtimes: [replay.runtime],
      variants: [replay.variant],
      workers: Math.max(1, opts.workers),
      only: { indexes: [replay.index], strikes: replay.strikes, runId: opts.run },
    };
  } else if (opts.seedDrawn) {
    deps.log(`chaos: seed ${opts.seed} (replay a run with --seed ${opts.seed} --run <id>)`);
  }

  const progress = createProgress({
    write: deps.progress?.write ?? ((text) => process.stderr.write(text)),
    tty: deps.progress?.tty ?? false,
    total: plannedRuns(campaign),
    ...(deps.progress?.columns ? { columns: deps.progress.columns } : {}),
  });
  let outcome;
  try {
    outcome = await runCampaign(campaign, {
      log: (line) => progress.log(line),
      started: (id, label) => progress.started(id, label),
      finished: (id) => progress.finished(id),
    });
  } finally {
    progress.stop();
  }
  // A replay writes beside the campaign's files, never over them: the campaign's chaos.json is what it replays from.
  const stem = opts.run ? `chaos-replay-${opts.run}` : 'chaos';
  const result = buildResult(campaign, outcome, {
    command,
    reportDir: opts.reportDirGiven ? opts.reportDir : null,
    replayOf: opts.run,
  });
  const files = { json: path.join(opts.reportDir, `${stem}.json`), html: path.join(opts.reportDir, `${stem}.html`) };
  const json = () => `${JSON.stringify(result, null, 2)}\n`;
  const reportError = writeReport(
    [
      { path: files.json, render: json },
      { path: files.html, render: () => toHtml(chaosDocument(result)) },
    ],
    { name: `${stem}.json`, text: json, cwd: process.env.INIT_CWD ?? process.cwd() },
  );
  return { result, files, reportError, clean: result.rows.filter((r) => r.variant === 'hardened').every(clean) };
}
