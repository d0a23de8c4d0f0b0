/**
 * `pnpm crash-test` on our own naive workflow, as a team would point it at theirs (src/workflows.ts
 * with harness/crash-test-activities.ts, the approval sent as a signal), agrees with `pnpm compare`'s
 * cells for the same workflow at the points both have.
 */
import { fileURLToPath } from 'node:url';
import { cellRequest, crashTestAgreementSpec } from '@vendor-review/conformance';
import { runtime } from '../harness/module.ts';
import { TEMPORAL_SERVER, type TemporalServer } from '../harness/server/spec.ts';
import { approveSignal, type ApprovalDecision, type VendorReviewInput } from '../src/definitions.ts';

const file = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));
const approval: ApprovalDecision = { approved: true, by: 'crash-test' };

crashTestAgreementSpec({
  module: runtime,
  configuration: { variant: 'naive', durability: null },
  app: (worldUrl) => {
    const input: VendorReviewInput = { runId: 'crash-test', request: cellRequest(worldUrl), variant: 'naive' };
    return [
      file('../src/workflows.ts'),
      '--activities',
      file('../harness/crash-test-activities.ts'),
      '--workflow',
      'vendorReview',
      '--input',
      JSON.stringify([input]),
      '--signal',
      `${approveSignal.name}=${JSON.stringify(approval)}`,
    ];
  },
  extractStep: 'extract',
  // crash-test reaches the dev server compare's cells run on, as a team points it at its own.
  serverEnv: (under) => (under.servers.get(TEMPORAL_SERVER.id)!.connection as TemporalServer).workerEnv,
});
