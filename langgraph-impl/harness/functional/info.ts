import { BEFORE_THE_GATE, type RuntimeInfo } from '@vendor-review/pipeline';

/**
 * LangGraph's Functional API as the harness sees it: the review as an entrypoint whose steps are
 * tasks (src/functional/review.ts), on the same saver, tables and worker as the StateGraph. The
 * naive variant in the three durability modes (`async` first, what the docs get without choosing),
 * hardened in its own (`sync`, each task's result committed before the next task starts:
 * src/functional/task-commits.ts). The deviations are the measured ones (MEASUREMENTS.md,
 * "Functional API").
 */
export const LANGGRAPH_FUNCTIONAL: RuntimeInfo = {
  name: 'langgraph-functional',
  label: 'LF',
  title: 'LangGraph Functional API',
  colour: '#0d9488',
  configurations: [
    { variant: 'naive', durability: 'async' },
    { variant: 'naive', durability: 'sync' },
    { variant: 'naive', durability: 'exit' },
    { variant: 'hardened', durability: null },
  ],
  // No granularity suite: the entrypoint's boundaries are its tasks, one per step.
  suites: ['crash', 'production'],
  hazardDeviations: [
    {
      hazard: 'zombie',
      variant: 'naive',
      expected: 'fenced',
      alsoSeen: ['refused-but-repeated'],
      why: "Nothing fences the woken naive entrypoint: as a rule it dies of its first request. Its model call's answer waited in the socket while it was frozen, and the next task's request (the tracker note: an entrypoint writes no checkpoint between tasks, so it goes out at once) is sent on that keep-alive connection, which the world closed while the worker slept (\"other side closed\"). Naive fails at the first error, before any effect; its error is a pending write on the checkpoint it froze with, which names no writer, and the run stays completed by its takeover. Measured in 6 of 7 runs; in the other, on a loaded machine, the close was read in time and the woken worker repeated the takeover's calls (refused-but-repeated: its writes are pending writes too, which the record cannot attribute).",
    },
  ],
  crashDeviations: [
    {
      durability: 'exit',
      points: BEFORE_THE_GATE,
      expected: { kind: 'lost' },
      why: 'Durability "exit" writes the entrypoint\'s checkpoint and its tasks\' results only when the entrypoint stops; before the approval interrupt a killed worker leaves nothing to resume from, and the run is lost.',
    },
    {
      variant: 'naive',
      points: BEFORE_THE_GATE,
      expected: { kind: 'varies' },
      why: 'The whole entrypoint is one superstep, so "sync" (which waits for the checkpoint between supersteps) waits for nothing a task writes: each task\'s result is handed back at once and written in the background, in "sync" as in "async". A kill right after fast tasks (a page fetch, a pure step) finds their results unwritten, and they run again; how many depends on the machine\'s load.',
    },
  ],
};
