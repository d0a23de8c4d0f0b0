import type { RuntimeInfo } from '@vendor-review/domain';

/** DBOS Transact as the harness sees it: no durability modes, a step journal in PostgreSQL. */
export const DBOS_INFO: RuntimeInfo = {
  name: 'dbos',
  label: 'DB',
  title: 'DBOS',
  colour: '#059669',
  configurations: [
    { variant: 'naive', durability: null },
    { variant: 'hardened', durability: null },
  ],
  // Only the crash catalogue is measured so far: the adapter offers no drills yet.
  suites: ['crash'],
};
