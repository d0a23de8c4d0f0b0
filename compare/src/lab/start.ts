import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  InvalidRequestError,
  parseReviewRequest,
  type Durability,
  type Granularity,
  type ReviewRequestInput,
  type Variant,
} from '@vendor-review/pipeline';
import { UsageError } from '@vendor-review/worker-io';
import { rebaseOnWorld, vendorRequest, VENDOR_SLUGS } from '@vendor-review/world';
import { runtimeInfos } from '../runtimes.ts';
import { handleLabel, runConfig } from './config.ts';
import { saveRun } from './runs.ts';
import { openRuntime, titleOf } from './runtimes.ts';
import { requireUp, type LabRuntime } from './state.ts';

/**
 * `pnpm lab start`: one run registered through the runtime's adapter, exactly as a `pnpm compare`
 * cell starts one, and remembered in the lab. Nothing executes until a lab worker takes it.
 */
export interface StartOptions {
  runtime: LabRuntime;
  vendor: string | undefined;
  requestFile: string | undefined;
  variant: Variant | null;
  durability: Durability | null;
  granularity: Granularity | null;
}

/** A request file is untrusted input: a missing file or bad JSON is one line, exit 2. */
function readRequestFile(file: string): unknown {
  // pnpm runs scripts from the repo root; a relative path means where the person typed it.
  const full = path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
  let text: string;
  try {
    text = readFileSync(full, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? `request file not found: ${full}` : `cannot read ${full}: ${code}`, {
      seeHelp: false,
    });
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`request file ${full} is not valid JSON: ${(err as Error).message}`, { seeHelp: false });
  }
}

function refuseInvalid(check: () => unknown): void {
  try {
    check();
  } catch (err) {
    if (err instanceof InvalidRequestError) throw new UsageError(err.message, { seeHelp: false });
    throw err;
  }
}

export async function startLabRun(dir: string, o: StartOptions): Promise<number> {
  if (!o.vendor === !o.requestFile) throw new UsageError('give exactly one of --vendor NAME and --request FILE');
  if (o.vendor && !VENDOR_SLUGS.includes(o.vendor))
    throw new UsageError(`unknown vendor "${o.vendor}"; the world has: ${VENDOR_SLUGS.join(', ')}`, {
      seeHelp: false,
    });
  const raw = o.requestFile ? readRequestFile(o.requestFile) : null;
  // What the person typed is checked before anything is asked of the lab.
  if (raw !== null) refuseInvalid(() => parseReviewRequest(raw));
  const [info] = await runtimeInfos([o.runtime]);
  const config = runConfig(info!, o.variant, o.durability, o.granularity);
  const state = requireUp(dir);
  const request: ReviewRequestInput = o.vendor
    ? vendorRequest(o.vendor, state.worldUrl)
    : (rebaseOnWorld(raw, state.worldUrl) as ReviewRequestInput);

  const { adapter } = await openRuntime(state, o.runtime);
  try {
    const handle = await adapter.startRun(request, config);
    saveRun(dir, {
      runtime: o.runtime,
      handle,
      request,
      source: o.vendor ?? o.requestFile!,
      createdAt: Date.now(),
    });
    const label = handleLabel(handle);
    console.log(
      `started run ${handle.runId}: ${titleOf(o.runtime)} ${label}, reviewing ${request.vendor.name} against ${request.requirements.length} requirement(s)`,
    );
    if (handle.link) console.log(`open it: ${handle.link}`);
    console.log(
      `nothing runs it yet: a lab worker takes it (pnpm lab worker ${o.runtime}); then pnpm lab show ${handle.runId}`,
    );
    return 0;
  } finally {
    await adapter.close();
  }
}
