import { BEFORE_THE_GATE, runConfigurations, type RuntimeInfo } from '@vendor-review/conformance';

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
  startCall:
    "the worker, at the entrypoint's invoke() (its root run beginning, seen by the harness's callback handler)",
  label: 'LF',
  title: 'LangGraph Functional API',
  colour: '#d97706',
  configurations: runConfigurations({ naive: ['async', 'sync', 'exit'], coarser: false }),
  // No granularity suite: the entrypoint's boundaries are its tasks, one per step.
  suites: ['crash', 'production', 'window'],
  hazardDeviations: [
    {
      hazard: 'partition',
      variant: 'naive',
      expected: 'duplicated-effects',
      why: 'The entrypoint does not wait for a task’s result to be saved before it calls the next task, so a worker cut off from PostgreSQL goes on: it calls the model and writes tracker notes while every save fails, and the standby worker, resuming from what was saved, makes the same calls again. Naive has no key: the tracker keeps both notes.',
    },
    {
      hazard: 'zombie',
      variant: 'naive',
      expected: 'repeated-the-takeover',
      alsoSeen: ['not-fenced'],
      why: "Nothing fences the woken naive entrypoint: it has no lease, and its writes are pending writes on the checkpoint it froze with, which name no writer. What it does on waking is a race with the takeover, and either share is a run nobody stopped. Repeated-the-takeover: it reads its model call's answer and goes on, and its calls to the world repeat the takeover's (tracker notes stored twice). Not-fenced: it makes no call the world records and writes nothing the record can name (its model call's answer waited in a keep-alive socket the world closed while it slept, and its next request fails on it); naive fails at the first error and the run stays completed by its takeover. The row's runs say how often each came.",
    },
    {
      hazard: 'zombie-at-effect',
      variant: 'hardened',
      expected: 'fenced-by-lease',
      alsoSeen: ['died-on-waking'],
      why: 'Our lease fences the woken entrypoint (it exits 5 when its renewal is refused), and the row names the fence from the records: the lease while the takeover holds it, or a checkpoint carrying its token. When the takeover claims the lease, resends the mail (collapsed by its key), finishes and releases it between two looks at the lease, the record may keep no trace of the new token: what the takeover wrote are pending writes on the run’s checkpoint, which name no writer. The row then says died-on-waking (seen once, in a CI run on a loaded machine); the customer still received one mail.',
    },
  ],
  crashDeviations: [
    {
      points: ['mid-commit'],
      expected: { kind: 'not-reached' },
      why: 'The entrypoint keeps a task’s result as a pending write (putWrites), which our saver leaves to PostgresSaver: the checkpoint write the point sits in keeps none of EXTRACT’s findings.',
    },
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
