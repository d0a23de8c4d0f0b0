import { BEFORE_THE_GATE, runConfigurations, type RuntimeInfo } from '@vendor-review/conformance';

const NAIVE_DIES_OF_SIGTERM =
  'A naive worker dies of SIGTERM wherever it is, and the deploy sends it once the world has answered the worker’s model call. Repeated-paid-calls: the worker was still in its call, which its successor pays again. Duplicated-effects: by the time the signal came it had gone on and sent an effect it had not recorded, which its successor sends again without a key (measured on a loaded machine). The row’s runs say how often each came.';

/**
 * LangGraph as the harness sees it. Its naive variant comes in all three durability modes
 * (`async` first: what a tutorial gets without choosing); the hardened variant picks its own.
 */
export const LANGGRAPH: RuntimeInfo = {
  name: 'langgraph',
  startCall: "the worker, at the graph's invoke() (its root run beginning, seen by the harness's callback handler)",
  label: 'LG',
  title: 'LangGraph',
  colour: '#2563eb',
  // The coarser granularities' naive runs in `sync`: every boundary is paid on the way.
  configurations: runConfigurations({ naive: ['async', 'sync', 'exit'], coarser: 'sync' }),
  approverDeviations: [
    {
      variant: 'naive',
      inbox: 2,
      why: 'Naive tells the approver in AWAIT_APPROVAL, before interrupt(), and LangGraph runs an interrupted node again from its first line when it is resumed: the approver is told again on the resume, crash or no crash (hardened tells them in ASK_APPROVAL, a node of its own, under a key).',
    },
  ],
  hazardDeviations: [
    {
      hazard: 'partition',
      variant: 'naive',
      expected: 'one-writer',
      alsoSeen: ['left-while-cut-off'],
      why: 'The graph waits for each step’s checkpoint, so the cut-off worker’s first failed write ends the run in it with an error: it calls nothing more. Whether its process has ended before the cut heals or only after (its pool still trying to connect) is a race; either way nothing it did reached the customer twice or the store.',
    },
    {
      hazard: 'restart-postgres',
      variant: 'hardened',
      expected: 'rode-it-out',
      alsoSeen: ['restart-needed'],
      why: 'The lease is renewed in the PostgreSQL being restarted. Rode-it-out: the outage ends before the lease does, and the worker carries on. Restart-needed: it outlasts the lease, the worker is fenced out (exit 5, its writes refused) and a supervisor starts another, which takes the run over with nothing delivered twice. Which comes depends on how long the restart takes against the lease’s TTL.',
    },
    {
      hazard: 'rolling-deploy',
      variant: 'naive',
      expected: 'repeated-paid-calls',
      alsoSeen: ['duplicated-effects'],
      why: NAIVE_DIES_OF_SIGTERM,
    },
  ],
  crashDeviations: [
    {
      durability: 'exit',
      points: [...BEFORE_THE_GATE, 'mid-commit'],
      expected: { kind: 'lost' },
      why: 'Durability "exit" writes a checkpoint only when the graph stops; before the approval interrupt a killed worker leaves nothing to resume from, and the run is lost.',
    },
    {
      durability: 'async',
      points: [...BEFORE_THE_GATE, 'mid-commit'],
      expected: { kind: 'varies' },
      why: 'Durability "async" writes checkpoints in the background while the next steps run; a kill loses whatever was still queued, so how much repeats depends on the machine\'s load.',
    },
    {
      // sync and hardened: async and exit matched above
      points: ['mid-commit'],
      stop: 'kill',
      expected: { kind: 'rule', outcome: { repeats: { model: { min: 0, max: 1 } }, duplicateEffect: false } },
      why: "LangGraph saves a finished task's result (putWrites) and the next checkpoint (put) without ordering the two (langgraph#8039). A kill inside the checkpoint's transaction finds EXTRACT's pending write committed in some runs (nothing repeats) and still in flight in others (EXTRACT runs again and its model call is paid twice): the row's runs say how often.",
    },
  ],
};
