import { Annotation, END, START, StateGraph } from '@langchain/langgraph';

// A vendor check written the way LangGraph's docs write a graph: plain fetch to the vendor API and
// an OpenAI-compatible model, one node per step. Nothing here knows about the crash test.
const API = process.env.EXAMPLE_API_URL ?? 'http://127.0.0.1:8080';

const State = Annotation.Root({
  vendorId: Annotation<string>,
  profile: Annotation<{ name: string; soc2: boolean } | null>,
  risk: Annotation<string | null>,
  ticket: Annotation<string | null>,
});

async function fetchVendor(state: typeof State.State) {
  const res = await fetch(`${API}/vendors/${state.vendorId}`);
  return { profile: (await res.json()) as { name: string; soc2: boolean } };
}

async function assess(state: typeof State.State) {
  const res = await fetch(`${API}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-example-not-a-secret' },
    body: JSON.stringify({
      model: 'example-model',
      messages: [{ role: 'user', content: `Assess the risk of ${JSON.stringify(state.profile)}` }],
    }),
  });
  const body = (await res.json()) as { choices: { message: { content: string } }[] };
  return { risk: body.choices[0]!.message.content };
}

async function openTicket(state: typeof State.State) {
  const res = await fetch(`${API}/tickets`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ vendor: state.vendorId, risk: state.risk }),
  });
  return { ticket: ((await res.json()) as { ticket: string }).ticket };
}

async function notify(state: typeof State.State) {
  await fetch(`${API}/notify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': `notify-${state.vendorId}` },
    body: JSON.stringify({ vendor: state.vendorId, ticket: state.ticket }),
  });
  return {};
}

export const graph = new StateGraph(State)
  .addNode('fetchVendor', fetchVendor)
  .addNode('assess', assess)
  .addNode('openTicket', openTicket)
  .addNode('notify', notify)
  .addEdge(START, 'fetchVendor')
  .addEdge('fetchVendor', 'assess')
  .addEdge('assess', 'openTicket')
  .addEdge('openTicket', 'notify')
  .addEdge('notify', END);

export const input = { vendorId: 'acme', profile: null, risk: null, ticket: null };
