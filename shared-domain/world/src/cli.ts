/** `pnpm world [--port 4100] [--model-latency 150] [--page-latency 0]`: the world on its own, until Ctrl-C. */
import { parseCli, runCli, UsageError, wholeNumber } from '@vendor-review/worker-io';
import { ROUTES } from './control.ts';
import { startWorld } from './server.ts';
import { VENDORS } from './vendors/index.ts';

const USAGE = `usage: pnpm world [--port 4100] [--host 127.0.0.1] [--model-latency 150] [--page-latency 0]
  the simulated world alone (vendor sites, model, tracker, mailer, ledger) until Ctrl-C`;

runCli('world', async () => {
  const { values } = parseCli({
    usage: USAGE,
    options: {
      port: { type: 'string', default: process.env.WORLD_PORT ?? '4100' },
      host: { type: 'string', default: '127.0.0.1' },
      'model-latency': { type: 'string', default: '150' },
      'page-latency': { type: 'string', default: '0' },
    },
  });
  const port = wholeNumber('--port', values.port, { min: 0, max: 65_535 })!;
  const world = await startWorld({
    port,
    host: values.host,
    modelLatencyMs: wholeNumber('--model-latency', values['model-latency'], { min: 0, max: 60_000 })!,
    pageLatencyMs: wholeNumber('--page-latency', values['page-latency'], { min: 0, max: 60_000 })!,
  }).catch((err: NodeJS.ErrnoException) => {
    throw err.code === 'EADDRINUSE'
      ? new UsageError(`port ${port} is in use: pass --port <free port> (or 0 for any)`, { seeHelp: false })
      : err;
  });

  console.log(`world listening on ${world.url}`);
  console.log(`model: ${world.url}/v1 (OPENAI_BASE_URL), latency ${values['model-latency']} ms`);
  console.log('\nvendors:');
  for (const v of VENDORS)
    console.log(`  ${v.slug.padEnd(16)} ${world.url}/vendors/${v.slug}/  (${v.pages.length} pages + sitemap.json)`);
  console.log('\nroutes:');
  for (const r of ROUTES) console.log(`  ${r}`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await world.stop();
  return 0;
});
