import { entrypoint, MemorySaver, task } from '@langchain/langgraph';

// The vendor check with LangGraph's Functional API, as its docs write one: tasks for the I/O, an
// entrypoint that composes them. The crash test puts its own checkpointer in the MemorySaver's place.
const API = process.env.EXAMPLE_API_URL ?? 'http://127.0.0.1:8080';

const fetchVendor = task('fetchVendor', async (vendorId: string) => (await fetch(`${API}/vendors/${vendorId}`)).json());

const openTicket = task('openTicket', async (vendorId: string) => {
  const res = await fetch(`${API}/tickets`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ vendor: vendorId }),
  });
  return ((await res.json()) as { ticket: string }).ticket;
});

export const workflow = entrypoint(
  { name: 'vendorCheck', checkpointer: new MemorySaver() },
  async (vendorId: string) => {
    const profile = await fetchVendor(vendorId);
    const ticket = await openTicket(vendorId);
    return { profile, ticket };
  },
);

export const input = 'acme';
