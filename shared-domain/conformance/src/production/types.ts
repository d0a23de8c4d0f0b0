import type { ReviewRequestInput, Variant } from '@vendor-review/pipeline';
import type { Harm } from '../catalogue/severity.ts';
import type { HazardDeviation, HazardId } from '../catalogue/hazards.ts';
import type { DurableRecord, RuntimeAdapter } from '../adapter.ts';
import type { PostgresHandle } from '@vendor-review/testbed';
import type { StartedServer } from '../servers.ts';
import type { LedgerEntry } from '@vendor-review/world';

/** One hazard, one runtime, one variant: a row of the production suite. */
export interface HazardScenario {
  /** "retry-transient/langgraph/hardened" */
  id: string;
  hazard: HazardId;
  runtime: string;
  variant: Variant;
  /** Where its runtime ends elsewhere than the catalogue expects (its runtime module's `hazardDeviations`). */
  deviations: readonly HazardDeviation[];
}

/** What a hazard runner gets: the runtime under test and the world, nothing else. */
export interface HazardEnv {
  adapter: RuntimeAdapter;
  worldUrl: string;
  request: ReviewRequestInput;
  /** How long any one wait may take before the run is declared stuck. */
  boundMs: number;
  log?: (line: string) => void;
  /**
   * The servers the harness brought up, for the hazards that restart them: `restart` is there only
   * on a server the harness owns (infra's handles). Absent: the row says it has nothing to restart.
   */
  infra?: HazardInfra;
}

export interface HazardInfra {
  postgres?: Pick<PostgresHandle, 'kind' | 'restart'>;
  /** The runtimes' own servers, by id. */
  servers?: Readonly<Record<string, StartedServer>>;
}

export type Figure = number | string | boolean | null;

/** What a runner found, judged from the world's ledger and the durable records. */
export interface HazardOutcome {
  verdict: string;
  /** The numbers behind the verdict ("attempts": 4, "seconds to the dead letter": 2.1…). */
  figures: Record<string, Figure>;
  runId: string | null;
  note?: string | null;
  ledger?: LedgerEntry[];
  durable?: DurableRecord | null;
}

export type HazardRunner = (env: HazardEnv, scenario: HazardScenario) => Promise<HazardOutcome>;

/** The runtime, or the environment, cannot be put through this hazard; the row says why. */
export class HazardSkipped extends Error {
  override readonly name = 'HazardSkipped';
}

export interface HazardObservation {
  scenario: HazardScenario;
  /** 0 for the first run of the row; a row whose verdict depends on timing runs several times. */
  repetition: number;
  status: 'ran' | 'skipped' | 'error';
  verdict: string | null;
  figures: Record<string, Figure>;
  runId: string | null;
  note: string | null;
  startedAt: number;
  endedAt: number;
  ledger: LedgerEntry[];
  durable: DurableRecord | null;
  /** What the run cost, from its ledger (evidence.ts hazardHarm): what the scorecard colours by, beside the verdict. */
  harm: Harm;
}
