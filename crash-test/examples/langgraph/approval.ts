import { Annotation, END, interrupt, START, StateGraph } from '@langchain/langgraph';

// A graph that waits for a person, as LangGraph's docs write human-in-the-loop: interrupt() in a
// node, the answer given with Command({ resume }). `--resume '"yes"'` answers it.
const API = process.env.EXAMPLE_API_URL ?? 'http://127.0.0.1:8080';

const State = Annotation.Root({
  vendorId: Annotation<string>,
  approved: Annotation<boolean>,
  ticket: Annotation<string | null>,
});

export const graph = new StateGraph(State)
  .addNode('ask', () => ({ approved: interrupt({ question: 'open a ticket?' }) === 'yes' }))
  .addNode('open', async (s: typeof State.State) => {
    if (!s.approved) return { ticket: null };
    const res = await fetch(`${API}/tickets`, { method: 'POST', body: JSON.stringify({ vendor: s.vendorId }) });
    return { ticket: ((await res.json()) as { ticket: string }).ticket };
  })
  .addEdge(START, 'ask')
  .addEdge('ask', 'open')
  .addEdge('open', END);

export const input = { vendorId: 'acme', approved: false, ticket: null };
