/**
 * The part of the domain that is free of I/O and of Node built-ins, so a Temporal workflow
 * (which runs in a deterministic sandbox) can import it. Anything added here must stay pure.
 */
export * from './state.ts';
export * from './steps/names.ts';
export type { Variant } from './run.ts';
export * from './granularity.ts';
export * from './retry-rule.ts';
