// The same vendor check as Temporal's docs write activities: plain functions doing the I/O.
const API = process.env.EXAMPLE_API_URL ?? 'http://127.0.0.1:8080';

async function call<T>(path: string, init?: { body: unknown; headers?: Record<string, string> }): Promise<T> {
  const res = await fetch(new URL(path, API), {
    method: init ? 'POST' : 'GET',
    headers: { 'content-type': 'application/json', ...init?.headers },
    ...(init ? { body: JSON.stringify(init.body) } : {}),
  });
  return (await res.json()) as T;
}

export const fetchVendor = (vendorId: string) => call<{ name: string; soc2: boolean }>(`/vendors/${vendorId}`);

export async function assess(profile: { name: string; soc2: boolean }): Promise<string> {
  const { choices } = await call<{ choices: { message: { content: string } }[] }>('/v1/chat/completions', {
    headers: { authorization: 'Bearer sk-example-not-a-secret' },
    body: {
      model: 'example-model',
      messages: [{ role: 'user', content: `Assess the risk of ${JSON.stringify(profile)}` }],
    },
  });
  return choices[0]!.message.content;
}

export const openTicket = async (vendorId: string, risk: string) =>
  (await call<{ ticket: string }>('/tickets', { body: { vendor: vendorId, risk } })).ticket;

export async function notify(vendorId: string, ticket: string): Promise<void> {
  await call('/notify', { headers: { 'idempotency-key': `notify-${vendorId}` }, body: { vendor: vendorId, ticket } });
}
