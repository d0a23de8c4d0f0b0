/**
 * The crash conformance suite against DBOS: every crash point in both variants, real worker
 * processes killed with SIGKILL, a replacement process under the same executor id and
 * application version, real PostgreSQL and the real world. Then what DBOS's journal says.
 */
import { crashSpecOf } from '@vendor-review/conformance';
import { runtime } from '../harness/module.ts';

crashSpecOf(runtime, { journal: "DBOS's step journal" });
