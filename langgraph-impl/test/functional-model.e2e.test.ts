/**
 * What only the Functional API's re-execution model has, measured on LangGraph 1.7.3 with our
 * saver in a real PostgreSQL and the real world's ledger (figures in MEASUREMENTS.md, "Functional
 * API"). A run stops durably at an interrupt (as every crash before it leaves it: the tasks'
 * results as pending writes on the checkpoint) and is resumed with Command, by the same code or
 * by a release that changed it, as a worker after a deploy would.
 *
 * - A deploy that changes the order or the number of task calls: a call is matched to a stored
 *   result by its task's name and its place in the order of calls, never by its arguments.
 * - A task called inside a StateGraph node, and inside a subgraph's node: the node runs again from
 *   its start on resume; does the task?
 */
import { Annotation, Command, entrypoint, interrupt, START, StateGraph, task } from '@langchain/langgraph';
import { createHttpPorts } from '@vendor-review/worker-io';
import { type Ports } from '@vendor-review/pipeline';
import { startWorld, type World } from '@vendor-review/world';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReviewSaver } from '../src/checkpointer.ts';
import { freshTestDatabase } from './db.ts';

let world: World;
let db: { url: string; drop(): Promise<void> };
let pool: pg.Pool;
let ports: Ports;

beforeAll(async () => {
  [world, db] = await Promise.all([startWorld({}), freshTestDatabase('functional_model')]);
  pool = new pg.Pool({ connectionString: db.url, max: 4 });
  ports = createHttpPorts({ worldUrl: world.url });
});
afterAll(async () => {
  await pool?.end();
  await db?.drop();
  await world?.stop();
});

const page = (path: string) => `${world.url}/vendors/acme-analytics${path}`;
/** GETs of each page path the world served for this run: what really executed. */
const gets = (runId: string) => {
  const out: Record<string, number> = {};
  for (const e of world.ledger({ runId, kind: 'web' })) if (e.outcome === 'ok') out[e.path] = (out[e.path] ?? 0) + 1;
  return out;
};

/** Each worker's view: a saver of its own over the same tables, as a new process would have. */
const saver = () => new ReviewSaver(pool, { variant: 'naive' });

/** A release of the review's research: the page fetches it makes, in order, as one task name. */
function release(runId: string, paths: string[], extra?: { before: string }) {
  const fetchTitle = task(
    'FETCH',
    async (url: string) => (await ports.web.get(url, { runId, step: 'FETCH', attempt: 1, worker: 'A' })).title,
  );
  const discover = task(
    'DISCOVER',
    async (url: string) => (await ports.web.get(url, { runId, step: 'DISCOVER', attempt: 1, worker: 'A' })).title,
  );
  return entrypoint({ name: 'review', checkpointer: saver() }, async (_input: { runId: string }) => {
    if (extra) await discover(page(extra.before));
    const titles: Record<string, string> = {};
    for (const p of paths) titles[p] = await fetchTitle(page(p));
    const decision = interrupt('approve?') as string;
    return { titles, decision };
  });
}

async function deploy(before: string[], after: string[], extra?: { before: string }) {
  const runId = `lf-deploy-${crypto.randomUUID().slice(0, 8)}`;
  const config = { configurable: { thread_id: crypto.randomUUID() }, durability: 'sync' as const };
  await release(runId, before).invoke({ runId }, config);
  const firstGets = gets(runId);
  const warnings: unknown[] = [];
  const warn = console.warn;
  console.warn = (...args: unknown[]) => void warnings.push(args);
  try {
    const out = (await release(runId, after, extra).invoke(new Command({ resume: 'yes' }), config)) as {
      titles: Record<string, string>;
    };
    return { titles: out.titles, firstGets, gets: gets(runId), warnings };
  } finally {
    console.warn = warn;
  }
}

/** What each page's title really is, read straight from the world (no run id: not in any run's ledger). */
async function trueTitle(path: string): Promise<string> {
  return (await ports.web.get(page(path), { runId: null as never, step: 'FETCH', attempt: 1, worker: 'test' })).title;
}

describe('a deploy between the stop and the resume that changes the task calls (matching is by position)', () => {
  it("the same calls in another order: each call gets the result stored at its place, another page's, and nothing is said", async () => {
    const r = await deploy(['/pricing', '/security'], ['/security', '/pricing']);
    expect(r.firstGets).toEqual({ '/vendors/acme-analytics/pricing': 1, '/vendors/acme-analytics/security': 1 });
    expect(r.gets).toEqual(r.firstGets); // nothing ran again
    expect(r.titles['/security']).toBe(await trueTitle('/pricing'));
    expect(r.titles['/pricing']).toBe(await trueTitle('/security'));
    expect(r.warnings).toEqual([]);
  });

  it("one call fewer at the front: the remaining call gets the removed call's result", async () => {
    const r = await deploy(['/pricing', '/security'], ['/security']);
    expect(r.gets).toEqual(r.firstGets);
    expect(r.titles['/security']).toBe(await trueTitle('/pricing'));
    expect(r.warnings).toEqual([]);
  });

  it('a new task of another name first: it runs, and every call after it shifts onto the stored results of the one before', async () => {
    const r = await deploy(['/pricing', '/security'], ['/pricing', '/security'], { before: '/' });
    // DISCOVER took place 0, which held FETCH /pricing: another name, so no match; it ran.
    expect(r.gets['/vendors/acme-analytics/']).toBe(1);
    // FETCH /pricing now sits at place 1, where FETCH /security's result is stored: it gets that one.
    expect(r.titles['/pricing']).toBe(await trueTitle('/security'));
    // FETCH /security at place 2 has nothing stored and runs: its page is fetched a second time.
    expect(r.gets['/vendors/acme-analytics/security']).toBe(2);
    expect(r.titles['/security']).toBe(await trueTitle('/security'));
    expect(r.warnings).toEqual([]);
  });

  it('unchanged code: every finished task is answered from the checkpoint, nothing runs twice', async () => {
    const r = await deploy(['/pricing', '/security'], ['/pricing', '/security']);
    expect(r.gets).toEqual(r.firstGets);
    expect(r.titles).toEqual({ '/pricing': await trueTitle('/pricing'), '/security': await trueTitle('/security') });
  });
});

describe('a task called inside a StateGraph node, and inside a subgraph', () => {
  const Channels = Annotation.Root({ title: Annotation<string | null>(), decision: Annotation<string | null>() });

  function nodeWithTask(runId: string) {
    const fetchTitle = task(
      'FETCH',
      async (url: string) => (await ports.web.get(url, { runId, step: 'FETCH', attempt: 1, worker: 'A' })).title,
    );
    return async () => {
      const title = await fetchTitle(page('/pricing'));
      const decision = interrupt('approve?') as string;
      return { title, decision };
    };
  }

  async function stopAndResume(build: (runId: string) => { invoke(input: never, config: never): Promise<unknown> }) {
    const runId = `lf-node-${crypto.randomUUID().slice(0, 8)}`;
    const config = { configurable: { thread_id: crypto.randomUUID() }, durability: 'sync' as const };
    await build(runId).invoke({ title: null, decision: null } as never, config as never);
    const out = (await build(runId).invoke(new Command({ resume: 'yes' }) as never, config as never)) as {
      title: string;
    };
    return { out, gets: gets(runId)['/vendors/acme-analytics/pricing'] };
  }

  it('in a node of the graph: the node runs again from its start, the task is answered from the checkpoint', async () => {
    const r = await stopAndResume((runId) =>
      new StateGraph(Channels).addNode('N', nodeWithTask(runId)).addEdge(START, 'N').compile({ checkpointer: saver() }),
    );
    expect(r.out.title).toBe(await trueTitle('/pricing'));
    expect(r.gets).toBe(1);
  });

  it('in a node of a subgraph: measured on 1.7.3 as in a node of the graph', async () => {
    const r = await stopAndResume((runId) => {
      const sub = new StateGraph(Channels).addNode('N', nodeWithTask(runId)).addEdge(START, 'N').compile();
      return new StateGraph(Channels).addNode('SUB', sub).addEdge(START, 'SUB').compile({ checkpointer: saver() });
    });
    expect(r.out.title).toBe(await trueTitle('/pricing'));
    expect(r.gets).toBe(1);
  });
});
