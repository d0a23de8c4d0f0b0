/**
 * The crash conformance suite against Restate: every crash point in both variants, real endpoint
 * processes killed with SIGKILL, a replacement endpoint behind the same deployment address, the
 * real Restate server, PostgreSQL and the world. Then what the server's journal says.
 */
import { crashSpecOf } from '@vendor-review/conformance';
import { runtime } from '../harness/module.ts';

crashSpecOf(runtime, { journal: "Restate's journal" });
