export * from './errors.ts';
export * from './identity.ts';
export * from './ports.ts';
export * from './request.ts';
export * from './state.ts';
export * from './state-migrations.ts';
export * from './crashpoints.ts';
export * from './steps/index.ts';
