/**
 * Writes the JSON Schema of results.json, with the rows of every registered suite, beside the zod
 * schema it comes from (src/report/results.schema.json). `pnpm --dir compare schema`; a test fails when the committed
 * file is not what this would write.
 */
import { writeFileSync } from 'node:fs';
import { RESULTS_SCHEMA_FILE, resultsJsonSchemaText } from '../report/results-schema.ts';
import { SUITES } from '../suites/index.ts';

writeFileSync(RESULTS_SCHEMA_FILE, resultsJsonSchemaText(SUITES.map((s) => s.rowSchema)));
process.stdout.write(`wrote ${RESULTS_SCHEMA_FILE}\n`);
