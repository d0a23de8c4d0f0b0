import { runCli } from '@vendor-review/worker-io';
import { crashTest, renderText, writeCrashTestReport } from './crash-test.ts';
import { parseOptions } from './options.ts';

/** `pnpm crash-test <module>`: relative paths are the user's, from where they ran pnpm. */
runCli(
  'crash-test',
  async () => {
    const cwd = process.env.INIT_CWD ?? process.cwd();
    const o = parseOptions(process.argv.slice(2), cwd);
    const results = await crashTest(o, (line) => process.stderr.write(`${line}\n`));
    const failed = writeCrashTestReport(results, o);
    process.stdout.write(
      o.json
        ? `${JSON.stringify(results, null, 2)}\n`
        : `${renderText(results, { color: process.stdout.isTTY ?? false, profile: o.profile })}\n`,
    );
    if (!o.json) process.stdout.write(`\nreport: ${o.reportDir}/report.html, results.json\n`);
    if (failed) {
      process.stderr.write(`crash-test: ${failed}\n`);
      return 1;
    }
    return 0;
  },
  { stopsOnSignal: true },
);
