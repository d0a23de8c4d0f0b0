import type { RuntimeAdapter } from '@vendor-review/conformance';
import { createLangGraphAdapter, type LangGraphAdapterOptions } from '../adapter.ts';
import { LANGGRAPH_FUNCTIONAL } from './info.ts';

/**
 * The StateGraph's adapter over runs written as an entrypoint: the same run table, lease,
 * approvals and worker (the run row says which API to build), so only who it is and its run ids
 * differ (`lf-…`).
 */
export function createFunctionalAdapter(o: Omit<LangGraphAdapterOptions, 'api'>): RuntimeAdapter {
  return createLangGraphAdapter({
    ...o,
    api: { name: 'functional', info: LANGGRAPH_FUNCTIONAL, runPrefix: 'lf' },
  });
}
