import { literal } from './document.ts';
import type { ResultsMeta } from './results-schema.ts';

/**
 * The words every report opens with, from the runtimes the run had (their modules name them):
 * no report is written for a fixed set of runtimes.
 */
export function runtimesTitle(meta: Pick<ResultsMeta, 'runtimes'>): string {
  const titles = meta.runtimes.map((r) => r.title);
  if (titles.length <= 1) return titles[0] ?? 'no runtime';
  return `${titles.slice(0, -1).join(', ')} and ${titles.at(-1)}`;
}

/** "LangGraph (@langchain/langgraph 1.7.3, …) · Temporal (@temporalio/worker 1.24.0) · Temporal server 1.32.0 · Node 20.20.2" */
export function versionsLine(meta: Pick<ResultsMeta, 'runtimes' | 'versions'>): string {
  const parts = meta.runtimes.flatMap((r) => {
    const libs = Object.entries(meta.versions.runtimes[r.name] ?? {});
    return libs.length
      ? [`${literal(r.title)} (${libs.map(([lib, v]) => literal(`${lib} ${v ?? '?'}`)).join(', ')})`]
      : [];
  });
  // The servers' own answers and the installed versions are outside text: shown, never read as markup.
  for (const [label, version] of Object.entries(meta.versions.servers))
    if (version) parts.push(`${label} ${literal(version)}`);
  parts.push(`Node ${literal(meta.versions.node)}`);
  return parts.join(' · ');
}

/** "LG = LangGraph, TM = Temporal" */
export function labelsLine(meta: Pick<ResultsMeta, 'runtimes'>): string {
  return meta.runtimes.map((r) => `${r.label} = ${r.title}`).join(', ');
}
