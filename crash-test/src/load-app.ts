import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { UsageError } from '@vendor-review/worker-io';

/**
 * The user's module, loaded as their code is (TypeScript through tsx, from their own directory,
 * the SDK from their node_modules), and what kind of app it is. A module that is none of the
 * shapes below is one line saying what was expected.
 */
export type Runtime = 'langgraph' | 'functional' | 'temporal';

export const SHAPES = `expected one of: a LangGraph StateGraph (export \`graph\`: the builder, or the compiled graph), a function \`build(checkpointer)\` that compiles it, an \`entrypoint\` of the Functional API (export \`workflow\` or \`entrypoint\`), or for Temporal a workflows module with --activities <module> and --workflow <type>`;

export async function importUserModule(file: string, what = 'module'): Promise<Record<string, unknown>> {
  const abs = resolve(file);
  if (!existsSync(abs)) throw new UsageError(`${what} ${file} does not exist`, { seeHelp: false });
  try {
    return (await import(pathToFileURL(abs).href)) as Record<string, unknown>;
  } catch (err) {
    const reason = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw new UsageError(`${what} ${file} does not load: ${reason}`, { seeHelp: false });
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
/** A StateGraph builder: something to compile. */
const isBuilder = (v: unknown): boolean =>
  isObject(v) && typeof v.compile === 'function' && typeof v.addNode === 'function';
/** A compiled graph or an entrypoint: LangGraph's Pregel. */
const isPregel = (v: unknown): boolean =>
  isObject(v) && typeof v.invoke === 'function' && typeof v.getState === 'function' && 'checkpointer' in v;

export interface LangGraphApp {
  runtime: 'langgraph' | 'functional';
  /** The export it found: the graph (builder or compiled), the entrypoint, or `build`. */
  exportName: string;
  kind: 'builder' | 'compiled' | 'build';
  /** The module's own `input`, when it exports one. */
  input: unknown;
}

const GRAPH_EXPORTS = ['graph', 'builder', 'workflow', 'entrypoint', 'app', 'default'];

/** Which LangGraph shape a module is, or null when it is none. */
export function langGraphShape(mod: Record<string, unknown>): LangGraphApp | null {
  const input = mod.input;
  if (typeof mod.build === 'function') return { runtime: 'langgraph', exportName: 'build', kind: 'build', input };
  for (const name of GRAPH_EXPORTS) {
    const v = mod[name];
    if (isBuilder(v)) return { runtime: 'langgraph', exportName: name, kind: 'builder', input };
    if (isPregel(v)) {
      // A compiled StateGraph keeps its builder; an entrypoint of the Functional API has none.
      const runtime = isObject(v) && 'builder' in v ? 'langgraph' : 'functional';
      return { runtime, exportName: name, kind: 'compiled', input };
    }
  }
  return null;
}

/** The graph to run, with `checkpointer` in its slot. */
export async function graphOf(
  mod: Record<string, unknown>,
  app: LangGraphApp,
  checkpointer: unknown,
): Promise<Record<string, (...a: unknown[]) => Promise<unknown>>> {
  const v = mod[app.exportName] as Record<string, unknown> & ((c: unknown) => unknown);
  if (app.kind === 'build') {
    const built = await v(checkpointer);
    if (!isPregel(built))
      throw new UsageError('build(checkpointer) did not return a compiled graph', { seeHelp: false });
    // A graph compiled without it (or with its own saver) would keep nothing worker B can resume from.
    if ((built as { checkpointer?: unknown }).checkpointer !== checkpointer)
      throw new UsageError(
        'build(checkpointer) compiled the graph without the checkpointer it was given: pass it on, as compile({ checkpointer })',
        { seeHelp: false },
      );
    return built as never;
  }
  if (app.kind === 'builder') return (v.compile as (o: unknown) => never)({ checkpointer });
  // A compiled graph or an entrypoint: its checkpointer is swapped for ours, as compile would set it.
  v.checkpointer = checkpointer;
  return v as never;
}

export interface TemporalApp {
  runtime: 'temporal';
  workflowsPath: string;
  activitiesPath: string;
  workflowType: string;
}

/** The workflow types a workflows module exports (its functions). */
export function workflowTypes(mod: Record<string, unknown>): string[] {
  return Object.keys(mod).filter((k) => typeof mod[k] === 'function');
}

/** Activities are an object of functions, or a factory (`createActivities()`) that returns one. */
export async function activitiesOf(
  mod: Record<string, unknown>,
): Promise<Record<string, (...a: unknown[]) => unknown>> {
  const factory = Object.entries(mod).find(([k, v]) => typeof v === 'function' && /^(create|make)Activities$/.test(k));
  if (factory) return (await (factory[1] as () => unknown)()) as never;
  if (isObject(mod.activities)) return mod.activities as never;
  const fns = Object.fromEntries(Object.entries(mod).filter(([, v]) => typeof v === 'function'));
  if (Object.keys(fns).length === 0) {
    throw new UsageError(
      'the activities module exports no functions (expected the activities, or createActivities())',
      {
        seeHelp: false,
      },
    );
  }
  return fns as never;
}
