import { parseArgs } from 'node:util';
import { ROUTES } from './control.ts';
import { startWorld } from './server.ts';
import { VENDORS } from './vendors/index.ts';

/** `pnpm world [--port 4100] [--model-latency 150] [--page-latency 0]`: the world on its own, until Ctrl-C. */
const { values } = parseArgs({
  options: {
    port: { type: 'string', default: process.env.WORLD_PORT ?? '4100' },
    host: { type: 'string', default: '127.0.0.1' },
    'model-latency': { type: 'string', default: '150' },
    'page-latency': { type: 'string', default: '0' },
  },
});

const world = await startWorld({
  port: Number(values.port),
  host: values.host,
  modelLatencyMs: Number(values['model-latency']),
  pageLatencyMs: Number(values['page-latency']),
}).catch((err: NodeJS.ErrnoException) => {
  console.error(
    err.code === 'EADDRINUSE'
      ? `port ${values.port} is in use: pass --port <free port> (or 0 for any)`
      : `world failed to start: ${err.message}`,
  );
  process.exit(1);
});

console.log(`world listening on ${world.url}`);
console.log(`model: ${world.url}/v1 (OPENAI_BASE_URL), latency ${values['model-latency']} ms`);
console.log('\nvendors:');
for (const v of VENDORS)
  console.log(`  ${v.slug.padEnd(16)} ${world.url}/vendors/${v.slug}/  (${v.pages.length} pages + sitemap.json)`);
console.log('\nroutes:');
for (const r of ROUTES) console.log(`  ${r}`);

const stop = () => void world.stop().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
