import type { Ports } from './ports.ts';
import { applyUpdate, combineUpdates, hasMoreRequirements, type ReviewState, type StateUpdate } from './state.ts';
import type { StepContext } from './steps/context.ts';
import { deliver } from './steps/deliver.ts';
import { discover } from './steps/discover.ts';
import { draft } from './steps/draft.ts';
import { extract } from './steps/extract.ts';
import { fetchPage } from './steps/fetch-page.ts';
import type { StepName } from './steps/names.ts';
import { saveProgress } from './steps/save-progress.ts';
import { selectPage } from './steps/select-page.ts';
import { selectRequirement } from './steps/select-requirement.ts';
import { validate } from './steps/validate.ts';
import { verify } from './steps/verify.ts';

/**
 * Stages: several shared steps run back to back inside ONE durable boundary, for the coarser
 * granularities (granularity.ts). A stage is nothing but the steps, called in graph order on the
 * state each leaves behind, with the crash points they hold; it returns everything they changed as
 * one update. The runtime gives each step its own context (the same idempotency key the step gets
 * in the fine graph), so a stage re-executed after a crash sends the same keys as the fine steps
 * would have: what differs between granularities is only how much runs again.
 */
export interface StageOptions {
  /** The context of one step: the runtime's identity, the step, and the parts its key is derived from. */
  contextFor: (step: StepName, keyParts: string[]) => StepContext;
  /** Told before each step starts, so a dead letter can name the step that failed inside the stage. */
  onStep?: (step: StepName) => void;
}

type Step = (state: ReviewState, ports: Ports, ctx: StepContext) => Promise<StateUpdate>;

/** The stage's own view: the state as its steps have left it, and what they changed so far. */
class Progress {
  update: StateUpdate = {};

  constructor(
    public state: ReviewState,
    private readonly ports: Ports,
    private readonly o: StageOptions,
  ) {}

  apply(update: StateUpdate): void {
    this.state = applyUpdate(this.state, update);
    this.update = combineUpdates(this.update, update);
  }

  async step(name: StepName, fn: Step, keyParts: string[] = []): Promise<void> {
    this.o.onStep?.(name);
    this.apply(await fn(this.state, this.ports, this.o.contextFor(name, keyParts)));
  }

  /** FETCH: every candidate page at once, as the fine graph's fan-out does; each page its own key. */
  async fetchCandidates(requirementId: string): Promise<void> {
    this.o.onStep?.('FETCH');
    const candidates = this.state.current?.candidates ?? [];
    const before = this.state;
    const updates = await Promise.all(
      candidates.map((url, index) =>
        fetchPage(before, this.ports, this.o.contextFor('FETCH', [requirementId, url]), {
          url,
          index,
          of: candidates.length,
        }),
      ),
    );
    for (const u of updates) this.apply(u);
  }
}

async function oneRequirement(p: Progress): Promise<void> {
  await p.step('SELECT_REQUIREMENT', selectRequirement);
  const requirementId = p.state.current!.requirementId;
  await p.step('SELECT_PAGE', selectPage, [requirementId]);
  await p.fetchCandidates(requirementId);
  await p.step('EXTRACT', extract, [requirementId]);
  await p.step('VERIFY', verify, [requirementId]);
  await p.step('SAVE_PROGRESS', saveProgress, [requirementId]);
}

/** The next pending requirement, from choosing it to its tracker note. */
export async function researchRequirement(state: ReviewState, ports: Ports, o: StageOptions): Promise<StateUpdate> {
  const p = new Progress(state, ports, o);
  await oneRequirement(p);
  return p.update;
}

/** Everything before the human: VALIDATE, DISCOVER, then every requirement to its tracker note. */
export async function researchAll(state: ReviewState, ports: Ports, o: StageOptions): Promise<StateUpdate> {
  const p = new Progress(state, ports, o);
  await p.step('VALIDATE', validate);
  await p.step('DISCOVER', discover);
  while (hasMoreRequirements(p.state)) await oneRequirement(p);
  return p.update;
}

/**
 * DRAFT and DELIVER in one boundary: the mail is sent from the same node that wrote it, with
 * nothing durable in between. A crash after the send re-drafts; a model that answers differently
 * the second time makes a different mail under the same key.
 */
export async function draftAndDeliver(state: ReviewState, ports: Ports, o: StageOptions): Promise<StateUpdate> {
  const p = new Progress(state, ports, o);
  await p.step('DRAFT', draft);
  await p.step('DELIVER', deliver);
  return p.update;
}
