import { proxyActivities } from '@temporalio/workflow';
import type * as activities from './activities.ts';

// A workflow as Temporal's docs write one. The short startToCloseTimeout is this example's choice:
// a worker that dies holding an activity hands it back only when this runs out.
const { fetchVendor, assess, openTicket, notify } = proxyActivities<typeof activities>({
  startToCloseTimeout: '3 seconds',
});

export async function reviewVendor(vendorId: string): Promise<{ risk: string; ticket: string }> {
  const profile = await fetchVendor(vendorId);
  const risk = await assess(profile);
  const ticket = await openTicket(vendorId, risk);
  await notify(vendorId, ticket);
  return { risk, ticket };
}
