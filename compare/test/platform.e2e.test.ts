/**
 * The platform `engines` promises is the one every dependency supports, and `pnpm install` on any
 * other Node refuses with a line saying so (engineStrict). Each check installs the real lockfile,
 * offline from the store the tree was installed from, into a scratch copy of the manifests, with
 * pnpm told which Node to check the engines against (its `nodeVersion` setting).
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, appendFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, workspacePackages } from './workspace-packages.ts';

/** The root's manifests and every workspace package's, whichever packages (and runtimes) there are. */
const MANIFESTS = [
  'package.json',
  'pnpm-workspace.yaml',
  'pnpm-lock.yaml',
  ...workspacePackages().map(({ dir }) => path.relative(ROOT, path.join(dir, 'package.json'))),
];
const run = promisify(execFile);
const scratch: string[] = [];
afterAll(() => scratch.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function installOn(nodeVersion: string): Promise<{ ok: boolean; output: string }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vendor-review-engines-'));
  scratch.push(dir);
  for (const f of MANIFESTS) cpSync(path.join(ROOT, f), path.join(dir, f));
  appendFileSync(path.join(dir, 'pnpm-workspace.yaml'), `\nnodeVersion: ${nodeVersion}\n`);
  try {
    const { stdout, stderr } = await run(
      'pnpm',
      ['install', '--frozen-lockfile', '--offline', '--ignore-scripts', '--reporter=append-only'],
      { cwd: dir, env: { ...process.env, CI: 'true' }, timeout: 120_000, maxBuffer: 16 << 20 },
    );
    return { ok: true, output: stdout + stderr };
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    return { ok: false, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

const engines = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } })
  .engines.node;
/** The lowest version of each range `engines` admits ("^20.19.0 || >=22.12.0" → 20.19.0, 22.12.0). */
const lowest = engines.split('||').map((r) => r.trim().replace(/^[\^>=~]+/, ''));

type Manifest = Record<'dependencies' | 'devDependencies', Record<string, string> | undefined>;
const manifests = MANIFESTS.filter((f) => f.endsWith('package.json')).map(
  (f) => [f, JSON.parse(readFileSync(path.join(ROOT, f), 'utf8')) as Manifest] as const,
);

describe('the dependencies', () => {
  it('a package several workspace packages depend on takes its version from the catalog', () => {
    const users = new Map<string, string[]>();
    for (const [file, m] of manifests)
      for (const [name, spec] of Object.entries({ ...m.dependencies, ...m.devDependencies }))
        if (!spec.startsWith('workspace:')) users.set(name, [...(users.get(name) ?? []), `${file}: ${spec}`]);
    const shared = [...users].filter(([, specs]) => specs.length > 1);
    expect(shared.length).toBeGreaterThan(0);
    expect(shared.filter(([, specs]) => specs.some((s) => !s.endsWith(': catalog:')))).toEqual([]);
  });

  it("playwright-core, only the report test's browser, is a dev dependency", () => {
    const compare = manifests.find(([f]) => f === 'compare/package.json')![1];
    expect(compare.dependencies?.['playwright-core']).toBeUndefined();
    expect(compare.devDependencies?.['playwright-core']).toBeDefined();
  });
});

describe('the platform', () => {
  it('engines names the lowest versions explicitly', () => {
    expect(
      lowest.every((v) => /^\d+\.\d+\.\d+$/.test(v)),
      engines,
    ).toBe(true);
  });

  it.each(lowest)('every dependency supports Node %s, the lowest engines admits', async (version) => {
    const { ok, output } = await installOn(version);
    expect(ok, output).toBe(true);
  });

  it('pnpm install on an older Node refuses, naming the engine', async () => {
    const { ok, output } = await installOn('20.3.0');
    expect(ok).toBe(false);
    expect(output).toMatch(/Unsupported engine/);
  });
});
