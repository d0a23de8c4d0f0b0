import { Annotation, END, START, StateGraph } from '@langchain/langgraph';

// The benchmark's app: four nodes, ten outbound calls (three reads, two model calls, five writes),
// written as LangGraph's docs write a graph. Nothing here knows about the crash test.
const API = process.env.EXAMPLE_API_URL ?? 'http://127.0.0.1:8080';

const State = Annotation.Root({
  vendors: Annotation<string[]>,
  profiles: Annotation<unknown[]>,
  verdicts: Annotation<string[]>,
  tickets: Annotation<string[]>,
});

const post = async (path: string, body: unknown, headers: Record<string, string> = {}) =>
  (
    await fetch(`${API}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    })
  ).json();

async function read(state: typeof State.State) {
  const profiles = await Promise.all(state.vendors.map(async (v) => (await fetch(`${API}/vendors/${v}`)).json()));
  return { profiles };
}

async function judge(state: typeof State.State) {
  const verdicts: string[] = [];
  for (const p of state.profiles.slice(0, 2)) {
    const r = (await post('/v1/chat/completions', {
      model: 'example-model',
      messages: [{ role: 'user', content: JSON.stringify(p) }],
    })) as {
      choices: { message: { content: string } }[];
    };
    verdicts.push(r.choices[0]!.message.content);
  }
  return { verdicts };
}

async function file(state: typeof State.State) {
  const tickets: string[] = [];
  for (const v of state.vendors) tickets.push(((await post('/tickets', { vendor: v })) as { ticket: string }).ticket);
  return { tickets };
}

async function tell(state: typeof State.State) {
  for (const t of state.tickets.slice(0, 2)) await post('/notify', { ticket: t }, { 'idempotency-key': `notify-${t}` });
  return {};
}

// One node after another, as `addSequence` chains them.
export const graph = new StateGraph(State)
  .addSequence({ read, judge, file, tell })
  .addEdge(START, 'read')
  .addEdge('tell', END);

export const input = { vendors: ['acme', 'globex', 'initech'], profiles: [], verdicts: [], tickets: [] };
