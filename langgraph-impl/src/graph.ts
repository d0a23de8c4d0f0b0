import { END, START, Send, StateGraph, type BaseCheckpointSaver } from '@langchain/langgraph';
import { DEFAULT_GRANULARITY, hasMoreRequirements, type Granularity, type ReviewState } from '@vendor-review/pipeline';
import { ReviewChannels } from './channels.ts';
import { createNodes, createStageNodes, type Node, type NodeDeps } from './nodes.ts';
import { nodeRetryPolicy } from './retry.ts';

/**
 * The review as a LangGraph StateGraph, in the three granularities a run can ask for (domain
 * granularity.ts). They differ in where the checkpoints are, not in state, channels or steps: every
 * node is a thin wrapper around a shared step (nodes.ts), and each node is one checkpoint boundary.
 *
 *   fine (buildGraph, the default):
 *     START → VALIDATE → DISCOVER → SELECT_REQUIREMENT → SELECT_PAGE ⇉ FETCH (one task per
 *     candidate page, in parallel, via Send) → EXTRACT → VERIFY → SAVE_PROGRESS → (more
 *     requirements? loop : DRAFT) → [ASK_APPROVAL →] AWAIT_APPROVAL (interrupt) → DELIVER (unless rejected) → END
 *   per-requirement (buildPerRequirementGraph):
 *     START → VALIDATE → DISCOVER → REQUIREMENT (looped) → DRAFT → AWAIT_APPROVAL → DELIVER → END
 *   coarse (buildCoarseGraph):
 *     START → REVIEW → AWAIT_APPROVAL → SEND → END
 *
 * In every one, a run that fails for good goes to DEAD_LETTER → END, and hardened tells the
 * approver in ASK_APPROVAL, a node of its own before AWAIT_APPROVAL (naive tells them inside it).
 */

/**
 * What the fine and per-requirement graphs share, everything but the requirement loop:
 * VALIDATE → DISCOVER → … → DRAFT → AWAIT_APPROVAL (interrupt) → DELIVER (unless rejected) → END;
 * DEAD_LETTER on final failure. A graph built on it adds the loop's nodes, DISCOVER's edge into the
 * loop and the loop's edge out to DRAFT. The coarse graph runs these steps inside its stages, so it
 * is built without it.
 *
 * The frame's nodes come first, the loop's after: node order changes no checkpoint's content, only
 * the order of keys in its channel_versions, which PostgreSQL's jsonb does not keep anyway.
 */
function reviewFrame(deps: NodeDeps) {
  const n = createNodes(deps);
  const policy = nodePolicy(deps);
  const gate = approvalGate(deps);
  const nodes = new StateGraph(ReviewChannels)
    .addNode('VALIDATE', n.VALIDATE, policy('VALIDATE'))
    .addNode('DISCOVER', n.DISCOVER, policy('DISCOVER'))
    .addNode('DRAFT', n.DRAFT, policy('DRAFT'))
    .addNode('AWAIT_APPROVAL', n.AWAIT_APPROVAL)
    .addNode('DELIVER', n.DELIVER, policy('DELIVER'))
    .addNode('DEAD_LETTER', n.DEAD_LETTER);
  return withApprovalAsk(nodes, deps)
    .addEdge(START, 'VALIDATE')
    .addConditionalEdges('VALIDATE', failedOr('DISCOVER'), ['DISCOVER', 'DEAD_LETTER'])
    .addConditionalEdges('DRAFT', failedOr(gate), [gate, 'DEAD_LETTER'])
    .addConditionalEdges('AWAIT_APPROVAL', (s: ReviewState) => (s.approval?.approved ? 'DELIVER' : END), [
      'DELIVER',
      END,
    ])
    .addConditionalEdges('DELIVER', failedOr(END), [END, 'DEAD_LETTER'])
    .addEdge('DEAD_LETTER', END);
}

/**
 * The fine graph: the frame, and inside it one node per step of each requirement. FETCH siblings
 * run in one superstep, so a crash between them leaves the finished siblings as pending writes on
 * the previous checkpoint, and a resume runs only the unfinished one.
 */
export function buildGraph(deps: NodeDeps) {
  const n = createNodes(deps);
  const policy = nodePolicy(deps);

  return (
    reviewFrame(deps)
      .addNode('SELECT_REQUIREMENT', n.SELECT_REQUIREMENT, policy('SELECT_REQUIREMENT'))
      .addNode('SELECT_PAGE', n.SELECT_PAGE, policy('SELECT_PAGE'))
      .addNode('FETCH', n.FETCH, policy('FETCH'))
      .addNode('EXTRACT', n.EXTRACT, policy('EXTRACT'))
      .addNode('VERIFY', n.VERIFY, policy('VERIFY'))
      .addNode('SAVE_PROGRESS', n.SAVE_PROGRESS, policy('SAVE_PROGRESS'))
      .addConditionalEdges('DISCOVER', failedOr('SELECT_REQUIREMENT'), ['SELECT_REQUIREMENT', 'DEAD_LETTER'])
      .addConditionalEdges('SELECT_REQUIREMENT', failedOr('SELECT_PAGE'), ['SELECT_PAGE', 'DEAD_LETTER'])
      .addConditionalEdges(
        'SELECT_PAGE',
        (s: ReviewState) => {
          if (s.failure) return 'DEAD_LETTER';
          const urls = s.current?.candidates ?? [];
          if (urls.length === 0) return 'EXTRACT';
          return urls.map((url, index) => new Send('FETCH', { ...s, target: { url, index, of: urls.length } }));
        },
        ['FETCH', 'EXTRACT', 'DEAD_LETTER'],
      )
      // A static edge joins the siblings: EXTRACT runs once, after all of them, and routes a sibling's failure.
      .addEdge('FETCH', 'EXTRACT')
      .addConditionalEdges('EXTRACT', failedOr('VERIFY'), ['VERIFY', 'DEAD_LETTER'])
      .addConditionalEdges('VERIFY', failedOr('SAVE_PROGRESS'), ['SAVE_PROGRESS', 'DEAD_LETTER'])
      .addConditionalEdges(
        'SAVE_PROGRESS',
        (s: ReviewState) => (s.failure ? 'DEAD_LETTER' : hasMoreRequirements(s) ? 'SELECT_REQUIREMENT' : 'DRAFT'),
        ['SELECT_REQUIREMENT', 'DRAFT', 'DEAD_LETTER'],
      )
  );
}

/**
 * The per-requirement graph: the frame, and inside it REQUIREMENT (one requirement from choosing it
 * to its tracker note, one checkpoint; looped while requirements are pending).
 */
export function buildPerRequirementGraph(deps: NodeDeps) {
  const stage = createStageNodes(deps);
  const policy = nodePolicy(deps);
  const nextRequirementOr = (s: ReviewState) =>
    s.failure ? 'DEAD_LETTER' : hasMoreRequirements(s) ? 'REQUIREMENT' : 'DRAFT';
  return reviewFrame(deps)
    .addNode('REQUIREMENT', stage.REQUIREMENT, policy('REQUIREMENT'))
    .addConditionalEdges('DISCOVER', nextRequirementOr, ['REQUIREMENT', 'DRAFT', 'DEAD_LETTER'])
    .addConditionalEdges('REQUIREMENT', nextRequirementOr, ['REQUIREMENT', 'DRAFT', 'DEAD_LETTER']);
}

/**
 * The coarse graph: REVIEW (VALIDATE, DISCOVER and every requirement to its tracker note, one
 * checkpoint) → AWAIT_APPROVAL (interrupt) → SEND (DRAFT and DELIVER, one checkpoint) → END;
 * DEAD_LETTER on final failure. The human is asked about the verdicts; the approval must be a
 * boundary of its own in every graph (an interrupt ends a node). SEND mails straight from the node,
 * with the step's key in hardened: the outbox is a durable boundary right before the effect, and
 * this graph has none there.
 */
export function buildCoarseGraph(deps: NodeDeps) {
  const n = createNodes(deps);
  const stage = createStageNodes(deps);
  const policy = nodePolicy(deps);
  const gate = approvalGate(deps);
  const nodes = new StateGraph(ReviewChannels)
    .addNode('REVIEW', stage.REVIEW, policy('REVIEW'))
    .addNode('AWAIT_APPROVAL', n.AWAIT_APPROVAL)
    .addNode('SEND', stage.SEND, policy('SEND'))
    .addNode('DEAD_LETTER', n.DEAD_LETTER);
  return withApprovalAsk(nodes, deps)
    .addEdge(START, 'REVIEW')
    .addConditionalEdges('REVIEW', failedOr(gate), [gate, 'DEAD_LETTER'])
    .addConditionalEdges('AWAIT_APPROVAL', (s: ReviewState) => (s.approval?.approved ? 'SEND' : END), ['SEND', END])
    .addConditionalEdges('SEND', failedOr(END), [END, 'DEAD_LETTER'])
    .addEdge('DEAD_LETTER', END);
}

/**
 * The graph of a run's granularity (domain granularity.ts): the fine graph, or one of the coarser
 * ones built from the same nodes and the domain's stages. They differ in node names, not in state
 * or channels, so every caller treats them as one type.
 */
export function compileGraph(
  deps: NodeDeps,
  checkpointer: BaseCheckpointSaver,
  granularity: Granularity = DEFAULT_GRANULARITY,
) {
  const builders = { fine: buildGraph, coarse: buildCoarseGraph, 'per-requirement': buildPerRequirementGraph };
  const builder = builders[granularity](deps) as unknown as ReturnType<typeof buildGraph>;
  return builder.compile({ checkpointer });
}

export type ReviewGraph = ReturnType<typeof compileGraph>;

/**
 * The node the run enters the approval gate by: hardened, ASK_APPROVAL (the approver told in a node
 * of its own); naive, AWAIT_APPROVAL itself, which tells them before its interrupt(). Typed as the
 * node the builder's type knows: ASK_APPROVAL is added outside it (withApprovalAsk).
 */
function approvalGate(deps: Pick<NodeDeps, 'variant'>): 'AWAIT_APPROVAL' {
  return (deps.variant === 'hardened' ? 'ASK_APPROVAL' : 'AWAIT_APPROVAL') as 'AWAIT_APPROVAL';
}

/** The builder's two calls withApprovalAsk makes, for a node its type does not name. */
interface AddsNodes {
  addNode(name: string, node: Node, options: object): AddsNodes;
  addConditionalEdges(source: string, path: (s: ReviewState) => string, ends: string[]): AddsNodes;
}

/**
 * hardened: ASK_APPROVAL, the approver told in a node of its own, and its edge on to the wait
 * (the builder adds in place). Naive's graph has no such node: LangGraph refuses one nothing leads to.
 */
function withApprovalAsk<G>(graph: G, deps: NodeDeps): G {
  if (deps.variant !== 'hardened') return graph;
  (graph as unknown as AddsNodes)
    .addNode('ASK_APPROVAL', createNodes(deps).ASK_APPROVAL, nodePolicy(deps)('ASK_APPROVAL'))
    .addConditionalEdges('ASK_APPROVAL', failedOr('AWAIT_APPROVAL'), ['AWAIT_APPROVAL', 'DEAD_LETTER']);
  return graph;
}

/** A conditional edge that takes a failed run to DEAD_LETTER and any other to `next`. */
function failedOr<T extends string>(next: T) {
  return (s: ReviewState) => (s.failure ? 'DEAD_LETTER' : next);
}

/**
 * The options of a working node, by its name: hardened, the retry rule of its step's kind (retry.ts);
 * naive is the graph as a tutorial writes it, with no retry policy at all.
 */
function nodePolicy(deps: Pick<NodeDeps, 'variant'>) {
  return (node: string) => (deps.variant === 'hardened' ? { retryPolicy: nodeRetryPolicy(node) } : {});
}
