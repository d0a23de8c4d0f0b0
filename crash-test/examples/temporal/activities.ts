// The same vendor check as Temporal's docs write activities: plain functions doing the I/O.
const API = process.env.EXAMPLE_API_URL ?? 'http://127.0.0.1:8080';

export async function fetchVendor(vendorId: string): Promise<{ name: string; soc2: boolean }> {
  const res = await fetch(`${API}/vendors/${vendorId}`);
  return (await res.json()) as { name: string; soc2: boolean };
}

export async function assess(profile: { name: string; soc2: boolean }): Promise<string> {
  const res = await fetch(`${API}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-example-not-a-secret' },
    body: JSON.stringify({ model: 'example-model', messages: [{ role: 'user', content: `Assess the risk of ${JSON.stringify(profile)}` }] }),
  });
  const body = (await res.json()) as { choices: { message: { content: string } }[] };
  return body.choices[0]!.message.content;
}

export async function openTicket(vendorId: string, risk: string): Promise<string> {
  const res = await fetch(`${API}/tickets`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ vendor: vendorId, risk }),
  });
  return ((await res.json()) as { ticket: string }).ticket;
}

export async function notify(vendorId: string, ticket: string): Promise<void> {
  await fetch(`${API}/notify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': `notify-${vendorId}` },
    body: JSON.stringify({ vendor: vendorId, ticket }),
  });
}
