import { BEFORE_THE_GATE, type RuntimeInfo } from '@vendor-review/pipeline';

/**
 * LangGraph as the harness sees it. Its naive variant comes in all three durability modes
 * (`async` first: what a tutorial gets without choosing); the hardened variant picks its own.
 */
export const LANGGRAPH: RuntimeInfo = {
  name: 'langgraph',
  label: 'LG',
  title: 'LangGraph',
  colour: '#2563eb',
  configurations: [
    { variant: 'naive', durability: 'async' },
    { variant: 'naive', durability: 'sync' },
    { variant: 'naive', durability: 'exit' },
    { variant: 'hardened', durability: null },
    // The same pipeline with fewer boundaries (domain granularity.ts); the crash catalogue keeps to `fine`.
    { variant: 'naive', durability: 'sync', granularity: 'per-requirement' },
    { variant: 'naive', durability: 'sync', granularity: 'coarse' },
    { variant: 'hardened', durability: null, granularity: 'per-requirement' },
    { variant: 'hardened', durability: null, granularity: 'coarse' },
  ],
  crashDeviations: [
    {
      durability: 'exit',
      points: BEFORE_THE_GATE,
      expected: { kind: 'lost' },
      why: 'Durability "exit" writes a checkpoint only when the graph stops; before the approval interrupt a killed worker leaves nothing to resume from, and the run is lost.',
    },
    {
      durability: 'async',
      points: BEFORE_THE_GATE,
      expected: { kind: 'varies' },
      why: 'Durability "async" writes checkpoints in the background while the next steps run; a kill loses whatever was still queued, so how much repeats depends on the machine\'s load.',
    },
  ],
};
