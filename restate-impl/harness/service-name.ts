/**
 * The name a cell deploys the `review` workflow under: one per run, as a task queue per run is to
 * Temporal. Restate hands a new invocation, the `approve` call included, to the newest deployment
 * of its service, so cells sharing one name would have one run's approval served by another
 * cell's endpoint, or by none once that cell is over. The workflow's code is the same under every name.
 */
export function serviceNameFor(runId: string): string {
  return `VendorReview_${runId.replace(/[^A-Za-z0-9_]/g, '_')}`;
}
