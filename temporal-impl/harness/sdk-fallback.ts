/**
 * Last resort for the infrastructure helper when no Temporal CLI is installed: the SDK's own
 * test server download (TestWorkflowEnvironment.createLocal, which fetches and caches a CLI
 * build). It needs internet access on first use, so it is not exercised by the tests here.
 */
export async function sdkDownloadedTemporal(): Promise<{ address: string; stop(): Promise<void> }> {
  const { TestWorkflowEnvironment } = await import('@temporalio/testing');
  const env = await TestWorkflowEnvironment.createLocal();
  return { address: env.address, stop: () => env.teardown() };
}
