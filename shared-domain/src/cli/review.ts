import { parseArgs } from 'node:util';
import { CrashPlanError, parseCrashPlan } from '../domain/crashpoints.ts';
import { InvalidRequestError, parseReviewRequest } from '../domain/request.ts';
import { rebaseOnWorld, vendorRequest } from '../world/requests.ts';
import { VENDOR_SLUGS } from '../world/vendors/index.ts';
import { readRequestFile, RequestFileError } from '../domain/runner/request-file.ts';

/**
 * `pnpm review --vendor <slug>` or `pnpm review --request <file.json>` [--keys]: one review with
 * the plain runner. Uses the world at WORLD_URL, or starts one in this process.
 * Exit codes: 0 delivered, 1 the run failed (dead letter), 2 the input was wrong (usage, request, CRASH_PLAN).
 */
const USAGE = `usage: pnpm review --vendor <${VENDOR_SLUGS.join('|')}> | --request <file.json> [--keys]`;

function fail(code: number, message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

function parseCli() {
  try {
    return parseArgs({
      options: { vendor: { type: 'string' }, request: { type: 'string' }, keys: { type: 'boolean', default: false } },
      strict: true,
    }).values;
  } catch (err) {
    return fail(2, `${(err as Error).message}\n${USAGE}`);
  }
}

const args = parseCli();
if (!args.vendor === !args.request) fail(2, USAGE);
try {
  parseCrashPlan(process.env.CRASH_PLAN);
} catch (err) {
  if (err instanceof CrashPlanError) fail(2, err.message);
  throw err;
}

// Everything the user typed is checked before any server starts, so a bad input costs nothing.
let raw: unknown;
try {
  if (args.vendor && !VENDOR_SLUGS.includes(args.vendor))
    fail(2, `unknown vendor "${args.vendor}"; the world has: ${VENDOR_SLUGS.join(', ')}`);
  raw = args.vendor ? vendorRequest(args.vendor, 'http://127.0.0.1:4100') : readRequestFile(args.request!);
  parseReviewRequest(raw);
} catch (err) {
  if (err instanceof InvalidRequestError || err instanceof RequestFileError) fail(2, err.message);
  throw err;
}

// Loaded only now: the openai client and the server are most of the start-up time, and a rejected input needs neither.
const [{ createHttpPorts }, { startWorld }, { summarizeLedger }, { worldClient }, { runPlain }] = await Promise.all([
  import('../domain/adapters/index.ts'),
  import('../world/server.ts'),
  import('../world/summary.ts'),
  import('../world/client.ts'),
  import('../domain/runner/plain.ts'),
]);
let world: Awaited<ReturnType<typeof startWorld>> | undefined;
const worldUrl = process.env.WORLD_URL ?? (world = await startWorld()).url;
const request = rebaseOnWorld(raw, worldUrl) as Parameters<typeof runPlain>[0];
const { state, failed } = await runPlain(request, createHttpPorts({ worldUrl }), {
  keys: args.keys,
  worker: process.env.WORKER_NAME ?? 'plain',
});

const entries = await worldClient(worldUrl).ledger({ runId: state.runId });
const usage = summarizeLedger(entries);
await world?.stop();

if (failed) fail(1, `run ${state.runId} failed at ${state.failure?.step}: ${state.failure?.error}`);
console.log(state.draft?.text ?? '');
console.log(
  `run ${state.runId} · delivered ${state.delivery?.messageId} to ${state.delivery?.to}${state.delivery?.duplicate ? ' (deduplicated)' : ''}`,
);
console.log(
  `world ledger: ${entries.length} calls (web ${usage.calls.web}, model ${usage.calls.model}, tracker ${usage.calls.tracker}, mail ${usage.calls.mail}) · ` +
    `${usage.promptTokens}+${usage.completionTokens} tokens · $${usage.costUsd.toFixed(6)}`,
);
