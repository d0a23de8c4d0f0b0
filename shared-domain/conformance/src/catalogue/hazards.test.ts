import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { RuntimeModule } from '../runtime-module.ts';
import { productionCatalogue } from '../production/catalogue.ts';
import type { RuntimeInfo } from '../adapter.ts';
import { DEFAULT_HAZARDS, HAZARD_IDS, HAZARD_SECTIONS, HAZARDS, LESSON_HAZARDS, type HazardId } from './hazards.ts';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** The workspace's package folders, as pnpm-workspace.yaml lists them. */
function workspacePackages(): string[] {
  const yaml = readFileSync(path.join(ROOT, 'pnpm-workspace.yaml'), 'utf8');
  const globs = [...yaml.split(/^\S.*:/m)[1]!.matchAll(/^\s+-\s+(\S+)/gm)].map((m) => m[1]!);
  return globs.flatMap((g) =>
    g.endsWith('/*')
      ? readdirSync(path.join(ROOT, g.slice(0, -2))).map((d) => path.join(ROOT, g.slice(0, -2), d))
      : [path.join(ROOT, g)],
  );
}

/**
 * Every runtime's title, whichever runtimes there are: each workspace package that exports a
 * runtime module (`./runtime`, and any other export whose name ends in `runtime`) is loaded, and
 * its module says who it is.
 */
async function runtimeTitles(): Promise<string[]> {
  const modules = workspacePackages()
    .filter((dir) => existsSync(path.join(dir, 'package.json')))
    .flatMap((dir) => {
      const { exports = {} } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
        exports?: Record<string, string>;
      };
      return Object.entries(exports)
        .filter(([key]) => key.endsWith('runtime'))
        .map(([, file]) => path.resolve(dir, file));
    });
  const loaded = await Promise.all(
    modules.map(async (file) => ((await import(pathToFileURL(file).href)) as { runtime: RuntimeModule }).runtime),
  );
  return loaded.map((m) => m.info.title);
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('the hazard catalogue’s verdicts', () => {
  const texts = Object.entries(HAZARDS).flatMap(([id, h]) =>
    Object.entries(h.verdicts as Record<string, string>).map(([v, text]) => ({ at: `${id}: ${v}`, text })),
  );

  it('claim no mechanism by a runtime’s name: a verdict is shared by every runtime that reaches it', async () => {
    const titles = await runtimeTitles();
    expect(titles.length).toBeGreaterThan(1); // the runtime packages were found
    const name = new RegExp([...titles.map(escape), 'patched\\(\\)'].join('|'));
    const named = texts.filter((t) => name.test(t.text)).map((t) => t.at);
    expect(named).toEqual([]);
  });

  it('a zombie verdict names who stopped the woken worker, or says nobody did', () => {
    for (const id of ['zombie', 'zombie-at-effect'] as const) {
      const verdicts: Record<string, string> = HAZARDS[id].verdicts;
      expect(Object.keys(verdicts)).not.toContain('fenced');
      expect(verdicts['fenced-by-runtime']).toMatch(/^the runtime stopped/);
      expect(verdicts['fenced-by-lease']).toMatch(/^our lease’s fencing token stopped/);
      for (const v of ['late-write-accepted', 'repeated-the-takeover', 'died-on-waking', 'not-fenced'])
        expect(verdicts[v], v).toMatch(/^nobody stopped the woken worker/);
    }
  });

  it('one writer and riding out a restart claim no refusal or retry the record may not show', () => {
    expect(HAZARDS['two-writers'].verdicts['one-writer']).not.toMatch(/was refused,|got no task/);
    expect(HAZARDS['restart-postgres'].verdicts['rode-it-out']).not.toMatch(/was tried again once/);
  });
});

describe('the default run: one hazard per lesson', () => {
  it("each lesson's hazard belongs to that lesson, and every lesson has one", () => {
    expect(Object.keys(LESSON_HAZARDS).sort()).toEqual(Object.keys(HAZARD_SECTIONS).sort());
    for (const [section, { hazard }] of Object.entries(LESSON_HAZARDS)) expect(HAZARDS[hazard].section).toBe(section);
    expect(DEFAULT_HAZARDS).toHaveLength(Object.keys(HAZARD_SECTIONS).length);
  });
});

describe('opt-in hazards', () => {
  const optIn = HAZARD_IDS.filter((id) => 'optIn' in HAZARDS[id]);
  const rt = (name: string, optInHazards?: HazardId[]): RuntimeInfo => ({
    name,
    label: name,
    title: name,
    colour: '#000000',
    configurations: [{ variant: 'naive', durability: null }],
    ...(optInHazards ? { optInHazards } : {}),
  });

  it('have rows only for the runtimes that list them, and are never in the default run', () => {
    expect(optIn).toContain('zombie-past-timeouts');
    const rows = productionCatalogue([rt('listed', optIn), rt('other')], optIn);
    expect(rows.map((r) => r.id).sort()).toEqual(optIn.map((id) => `${id}/listed/naive`).sort());
    for (const id of optIn) expect(DEFAULT_HAZARDS).not.toContain(id);
  });
});
