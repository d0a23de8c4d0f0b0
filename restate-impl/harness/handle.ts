import type { RunHandle } from '@vendor-review/conformance';

/** A run, with the workflow service it runs as and the address its deployment is registered at. */
export interface RestateHandle extends RunHandle {
  service: string;
  deploymentUrl: string;
}
