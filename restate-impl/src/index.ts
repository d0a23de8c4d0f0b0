/** The application: the workflow, the endpoint that serves it, what a client says to the server, and the store beside it. */
export {
  reviewWorkflow,
  REVIEW_SERVICE,
  PHASE_KEY,
  APPROVAL_PROMISE,
  type Phase,
  type ReviewInput,
} from './workflow.ts';
export {
  readEndpointConfig,
  serveReviewEndpoint,
  type EndpointConfig,
  type ReviewEndpoint,
  type ServeOptions,
} from './endpoint.ts';
export * from './client.ts';
export { setupDatabase, RESTATE_RUNS, RESTATE_OUTBOX, RESTATE_STEP_ERRORS } from './store.ts';
