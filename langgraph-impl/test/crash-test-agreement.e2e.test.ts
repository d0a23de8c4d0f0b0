/**
 * `pnpm crash-test` on our own naive graph, as a team would point it at theirs (harness/crash-test-app.ts),
 * agrees with `pnpm compare`'s cells for the same graph in `sync` at the points both have.
 */
import { fileURLToPath } from 'node:url';
import { crashTestAgreementSpec } from '@vendor-review/conformance';
import { runtime } from '../harness/module.ts';

crashTestAgreementSpec({
  module: runtime,
  configuration: { variant: 'naive', durability: 'sync' },
  app: () => [
    fileURLToPath(new URL('../harness/crash-test-app.ts', import.meta.url)),
    '--durability',
    'sync',
    '--resume',
    JSON.stringify({ approved: true, by: 'crash-test' }),
  ],
  extractStep: 'EXTRACT',
});
