import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode } from '@temporalio/worker';
import { makeDirectory, writeFileAtomic } from '@vendor-review/worker-io';
import { publishCached, sourcesHash, type Built } from '@vendor-review/testbed';
import { WORKFLOWS_PATH } from './paths.ts';

export { WORKFLOWS_PATH };

/** webpack's report is long and only interesting when something is wrong. */
const quietLogger = {
  log: () => {},
  trace: () => {},
  debug: () => {},
  info: () => {},
  warn: (message: string) => process.stderr.write(`bundle: ${message}\n`),
  error: (message: string) => process.stderr.write(`bundle: ${message}\n`),
};

/**
 * Build the workflow bundle once, ahead of time, into a file. Every worker process then loads
 * that file (`workflowBundle: { codePath }`) instead of running webpack at start, which is what
 * lets a replacement worker take over a crashed one in about a second.
 */
export async function buildWorkflowBundle(
  outPath: string,
  workflowsPath: string = WORKFLOWS_PATH,
): Promise<{ path: string; ms: number }> {
  const started = performance.now();
  const { code } = await bundleWorkflowCode({ workflowsPath, logger: quietLogger });
  const path = resolve(outPath);
  makeDirectory(dirname(path));
  writeFileAtomic(path, code);
  return { path, ms: Math.round(performance.now() - started) };
}

const PACKAGE_DIR = fileURLToPath(new URL('../', import.meta.url));
const PURE_DOMAIN = fileURLToPath(new URL('../../shared-domain/pipeline/src/', import.meta.url));

/**
 * The bundle, built once and cached under temporal-impl/.cache by a hash of the sources it comes
 * from: webpack takes 10-20 s on two cores, and a new build is needed only when code changed.
 * Another entry (the benchmark's workflows) is cached under its own name beside it.
 */
export async function cachedWorkflowBundle(o: { workflowsPath?: string; name?: string } = {}): Promise<Built> {
  const name = o.name ?? 'workflow-bundle';
  const dir = resolve(PACKAGE_DIR, '.cache');
  // An entry outside src/ (another release's workflow, the benchmark's) brings its own folder's sources.
  const roots = [resolve(PACKAGE_DIR, 'src'), ...(o.workflowsPath ? [dirname(o.workflowsPath)] : []), PURE_DOMAIN];
  const cached = resolve(dir, `${name}-${sourcesHash(roots)}.js`);
  if (existsSync(cached)) return { path: cached, ms: 0, cached: true };
  const tmp = resolve(dir, `tmp-${process.pid}-${name}.js`);
  const built = await buildWorkflowBundle(tmp, o.workflowsPath);
  publishCached(dir, `${name}-`, built.path, cached);
  return { path: cached, ms: built.ms, cached: false };
}
