import type { Durability, RunStatus, Variant } from '@vendor-review/pipeline';
import { lastDurableBefore, type DurableRecord, type RuntimeAdapter } from '@vendor-review/conformance';
import { worldClient } from '@vendor-review/world';
import { LedgerPrinter } from './ledger-lines.ts';
import { saveAtCrash, type LabRun } from './runs.ts';
import { titleOf } from './runtimes.ts';
import type { LabRuntime, LabState } from './state.ts';
import type { Child } from './worker-child.ts';
import type { WorkerSession } from './worker-session.ts';

/**
 * A lab worker's state, in one place: the worker process of each run it runs, what it has said and
 * decided about each run it met, the exits and followers still under way, and why it stops. Its
 * phases (worker.ts) and its handling of a worker's end (worker-exits.ts) read and move it.
 */
export interface LabWorkerOptions {
  runtime: LabRuntime;
  variant: Variant | null;
  durability: Durability | null;
  /**
   * A crash plan for the worker processes it starts (`pnpm lab worker … --crash after-model`): the
   * instrument kills the process at that point, as a crash cell's worker A dies; null for none.
   */
  crash: string | null;
}

export interface RunNotes {
  /** The status it last said; null until the run is taken. */
  status: RunStatus | null;
  /** It said it does not take the run (another variant or durability). */
  refused: boolean;
  /** Its worker exited without ending it: left alone until the lab worker is started again. */
  givenUp: boolean;
  /** Its worker left while the dead worker's lease held: the next one, named so, not before then. */
  retry: { name: string; notBefore: number } | null;
}

export class LabWorkerState {
  readonly title: string;
  /** "naive, durability async", or "any variant": which runs it takes. */
  readonly takes: string;
  readonly ledger: LedgerPrinter;
  /** The worker process of each run that has one now. */
  readonly children = new Map<string, Child>();
  readonly notes = new Map<string, RunNotes>();
  /** The exits being handled (judged, a crash's record read): the lab worker ends after them. */
  readonly exits: Promise<void>[] = [];
  /** The runs being followed (followRun), one per child: ended before the adapter closes. */
  readonly follows = new Set<Promise<void>>();
  /** Ctrl-C (or another stop signal) to this process. */
  interrupted: NodeJS.Signals | null = null;
  /** A worker process killed by someone: the machine is down from that moment. */
  ending: { code: number; why: string } | null = null;

  constructor(
    readonly dir: string,
    readonly state: LabState,
    readonly o: LabWorkerOptions,
    readonly session: WorkerSession,
    readonly adapter: RuntimeAdapter,
  ) {
    this.title = titleOf(o.runtime);
    this.takes = [o.variant, o.durability && `durability ${o.durability}`].filter(Boolean).join(', ') || 'any variant';
    this.ledger = new LedgerPrinter(worldClient(state.worldUrl), (line) => this.out(line));
  }

  stopped(): boolean {
    return !!this.interrupted || !!this.ending;
  }

  out(line: string): void {
    process.stdout.write(`${line}\n`);
  }

  lab(line: string): void {
    this.out(`[lab] ${line}`);
  }

  notesOf(runId: string): RunNotes {
    let n = this.notes.get(runId);
    if (!n) this.notes.set(runId, (n = { status: null, refused: false, givenUp: false, retry: null }));
    return n;
  }

  /** The worker processes alive now, for the watcher that kills them if the lab worker dies. */
  setChildren(): void {
    this.session.setChildren([...this.children.values()].map((c) => c.life.pid!).filter(Boolean));
  }

  /** What is durable while no worker of the run is alive: the "last durable" of the evidence. */
  async snapshot(run: LabRun): Promise<DurableRecord | null> {
    const record = await this.adapter.durableRecord(run.handle).catch(() => null);
    if (record) saveAtCrash(this.dir, run.handle.runId, record);
    return record;
  }

  /** The run's record read now that its worker is dead, as the "durable when it died" lines say it. */
  async durableAtDeath(c: Child): Promise<string> {
    return lastDurableBefore(await this.snapshot(c.run), c.life.exitedAt).long;
  }
}
