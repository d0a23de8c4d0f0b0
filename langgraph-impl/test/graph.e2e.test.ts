import { MemorySaver, Command } from '@langchain/langgraph';
import { initialState, parseReviewRequest, type ReviewState } from '@vendor-review/pipeline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approveRun } from '../src/approvals.ts';
import { compileGraph } from '../src/graph.ts';
import { getRun, readCheckpointRows } from '../harness/inspect.ts';
import { createRun } from '../src/runs.ts';
import { executeOnFakes, freshTestDatabase } from './db.ts';
import { fakePorts, fakeSteps, sampleRequest } from './fakes.ts';

let db: { url: string; drop(): Promise<void> };
beforeAll(async () => {
  db = await freshTestDatabase('graph');
});
afterAll(async () => {
  await db?.drop();
});

/** A graph on fake steps in memory, run up to its approval interrupt. */
async function untilApproval(variant: 'naive' | 'hardened', n: string) {
  const world = fakePorts();
  const graph = compileGraph({ variant, ports: world.ports, worker: 'T', steps: fakeSteps }, new MemorySaver());
  const config = { configurable: { thread_id: `t-${n}` } };
  await graph.invoke(initialState(`run-${n}`, parseReviewRequest(sampleRequest())), config);
  return { world, graph, config };
}

describe('graph wiring (fake steps, in-process)', () => {
  it('runs every step, fans FETCH out per candidate, stops at the approval interrupt and delivers after resume', async () => {
    const { world, graph, config } = await untilApproval('naive', '1');
    const waiting = await graph.getState(config);
    expect(waiting.next).toEqual(['AWAIT_APPROVAL']);
    // 1 sitemap + 3 pages for each of the 2 requirements
    expect(world.calls.filter((c) => c.kind === 'web')).toHaveLength(7);
    expect(world.calls.filter((c) => c.kind === 'tracker')).toHaveLength(2);
    const asks = () => world.calls.filter((c) => c.kind === 'approver');
    expect(asks()).toHaveLength(1);
    await graph.invoke(new Command({ resume: { approved: true, by: 'qa' } }), config);
    const done = (await graph.getState(config)).values as ReviewState;
    expect(done.delivery?.to).toBe('priya@example.com');
    // the resume ran AWAIT_APPROVAL again from its first line: the approver was told again, with no crash
    expect(asks()).toHaveLength(2);
    expect(Object.keys(done.verdicts).sort()).toEqual(['dpa', 'soc2']);
    // naive sends no keys
    expect(world.calls.every((c) => c.meta.idempotencyKey === undefined)).toBe(true);
  });

  it('hardened: the approver is told in ASK_APPROVAL, a node of its own, once, under its key', async () => {
    const { world, graph, config } = await untilApproval('hardened', '3');
    expect((await graph.getState(config)).next).toEqual(['AWAIT_APPROVAL']);
    // rejected, so the run ends before DELIVER (which needs the outbox this graph was built without)
    await graph.invoke(new Command({ resume: { approved: false, by: 'qa' } }), config);
    const asks = world.calls.filter((c) => c.kind === 'approver');
    expect(asks.map((c) => c.meta.step)).toEqual(['ASK_APPROVAL']);
    expect(typeof asks[0]!.meta.idempotencyKey).toBe('string');
  });

  it('a rejection ends the run without delivering', async () => {
    const { world, graph, config } = await untilApproval('naive', '2');
    await graph.invoke(new Command({ resume: { approved: false, by: 'qa', note: 'no' } }), config);
    const done = (await graph.getState(config)).values as ReviewState;
    expect(done.approval).toEqual({ approved: false, by: 'qa', note: 'no' });
    expect(done.delivery).toBeNull();
    expect(world.calls.some((c) => c.kind === 'mail')).toBe(false);
  });
});

describe('executeRun against PostgreSQL (fake steps)', () => {
  it('hardened: keys on every call, outbox delivers once, durable record names the nodes', async () => {
    const world = fakePorts();
    const { runId } = await createRun({ databaseUrl: db.url, request: sampleRequest(), variant: 'hardened' });
    await approveRun({ databaseUrl: db.url, runId, approved: true, by: 'qa' });
    expect((await executeOnFakes(db.url, runId, world.ports)).status).toBe('completed');
    expect(world.calls.filter((c) => c.kind !== 'web').every((c) => typeof c.meta.idempotencyKey === 'string')).toBe(
      true,
    );
    expect(world.calls.filter((c) => c.kind === 'mail')).toHaveLength(1);
    const view = await getRun({ databaseUrl: db.url, runId });
    expect(view.status).toBe('completed');
    expect(view.deliveredVia).toBe('outbox');
    expect(view.delivery?.status).toBe('sent');
    const record = await readCheckpointRows({ databaseUrl: db.url, runId });
    const nodes = record.checkpoints.map((c) => c.node);
    expect(nodes).toContain('FETCH');
    expect(nodes).toContain('AWAIT_APPROVAL');
    // every checkpoint's provenance: this worker, under the run's first lease
    expect(record.checkpoints.every((c) => c.writer === 'T' && c.fencingToken === 1)).toBe(true);
    // the lease row, released at the end, still says who claimed it last and with which token
    expect(record.lease).toMatchObject({ fencingToken: 1 });
    expect(record.lease?.owner).toMatch(/^T\b/);
    expect(record.checkpoints.filter((c) => c.node === 'FETCH')).toHaveLength(2);
  });
});
