import type { Variant } from '@vendor-review/pipeline';
import type { RunConfig, RuntimeInfo } from '../adapter.ts';

/**
 * The configuration a hazard about workers racing or freezing runs in: the variant with each
 * step's checkpoint written before the next step starts (`sync`), where the runtime has durability
 * modes. Under `async` a checkpoint write can still be open when a worker freezes; PostgreSQL then
 * ends the idle transaction (LangGraph's pool sets idle_in_transaction_session_timeout) and the
 * woken worker dies of the dropped connection, which hides what it would have written instead of
 * refusing it. Runtimes without modes run as the variant chooses.
 */
export function stepwiseConfig(runtime: RuntimeInfo, variant: Variant): RunConfig {
  return (
    runtime.configurations.find((c) => c.variant === variant && c.durability === 'sync') ?? {
      variant,
      durability: null,
    }
  );
}
