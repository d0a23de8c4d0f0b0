/** `pnpm --filter @vendor-review/temporal build:bundle [out]`: writes the workflow bundle the workers load. */
import { buildWorkflowBundle } from '../bundle.ts';

const out = process.argv[2] ?? '.cache/workflow-bundle.js';
const { path, ms } = await buildWorkflowBundle(out);
console.log(`workflow bundle written to ${path} in ${ms}ms; start workers with WORKFLOW_BUNDLE=${path}`);
