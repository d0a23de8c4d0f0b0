/**
 * `pnpm review --vendor <slug>` or `pnpm review --request <file.json>` [--keys]: one review with
 * the plain runner. Uses the world at WORLD_URL, or starts one in this process.
 * Exit codes: 0 delivered, 1 the run failed (dead letter), 2 the input was wrong (usage, request).
 */
import { InvalidRequestError, parseReviewRequest } from '@vendor-review/pipeline';
import { readRequestFile, RequestFileError } from './request-file.ts';
import { parseCli, runCli, UsageError } from '@vendor-review/worker-io';
import { rebaseOnWorld, vendorRequest } from '../requests.ts';
import { VENDOR_SLUGS } from '../vendors/index.ts';

const USAGE = `usage: pnpm review --vendor <${VENDOR_SLUGS.join('|')}> | --request <file.json> [--keys]
  --vendor SLUG      review one of the simulated world's vendors
  --request FILE     review the request in a JSON file (see shared-domain/world/fixtures/)
  --keys             send idempotency keys, as the hardened variants do
Uses the world at WORLD_URL, or starts one in this process.`;

/** A mistake in what the user handed us (not in the flags): one line, exit 2, no hint. */
function badInput(err: unknown): never {
  if (err instanceof InvalidRequestError || err instanceof RequestFileError)
    throw new UsageError(err.message, { seeHelp: false });
  throw err;
}

runCli('review', async () => {
  const { values: args } = parseCli({
    usage: USAGE,
    options: { vendor: { type: 'string' }, request: { type: 'string' }, keys: { type: 'boolean', default: false } },
  });
  if (!args.vendor === !args.request) throw new UsageError('give exactly one of --vendor and --request');
  if (args.vendor && !VENDOR_SLUGS.includes(args.vendor))
    throw new UsageError(`unknown vendor "${args.vendor}"; the world has: ${VENDOR_SLUGS.join(', ')}`, {
      seeHelp: false,
    });
  // Everything the user typed is checked before any server starts, so a bad input costs nothing.
  let raw: unknown;
  try {
    raw = args.vendor ? vendorRequest(args.vendor, 'http://127.0.0.1:4100') : readRequestFile(args.request!);
    parseReviewRequest(raw);
  } catch (err) {
    badInput(err);
  }

  // Loaded only now: the openai client and the server are most of the start-up time, and a rejected input needs neither.
  const [{ createHttpPorts }, { startWorld }, { summarizeLedger }, { worldClient }, { runPlain }] = await Promise.all([
    import('@vendor-review/worker-io'),
    import('../server.ts'),
    import('../summary.ts'),
    import('../client.ts'),
    import('@vendor-review/pipeline'),
  ]);
  const world = process.env.WORLD_URL ? undefined : await startWorld();
  const worldUrl = process.env.WORLD_URL ?? world!.url;
  const request = rebaseOnWorld(raw, worldUrl) as Parameters<typeof runPlain>[0];
  const { state, failed } = await runPlain(request, createHttpPorts({ worldUrl }), {
    keys: args.keys,
    worker: process.env.WORKER_NAME ?? 'plain',
  });
  const entries = await worldClient(worldUrl).ledger({ runId: state.runId });
  const usage = summarizeLedger(entries);
  await world?.stop();

  if (failed) throw new Error(`run ${state.runId} failed at ${state.failure?.step}: ${state.failure?.error}`);
  console.log(state.draft?.text ?? '');
  console.log(
    `run ${state.runId} · delivered ${state.delivery?.messageId} to ${state.delivery?.to}${state.delivery?.duplicate ? ' (deduplicated)' : ''}`,
  );
  console.log(
    `world ledger: ${entries.length} calls (web ${usage.calls.web}, model ${usage.calls.model}, tracker ${usage.calls.tracker}, mail ${usage.calls.mail}) · ` +
      `${usage.promptTokens}+${usage.completionTokens} tokens · ${usage.costUsd === null ? 'price unknown' : `$${usage.costUsd.toFixed(6)}`}`,
  );
  return 0;
});
