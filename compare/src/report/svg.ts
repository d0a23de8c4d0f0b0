/** The few SVG/HTML text helpers the report's drawings share. */
export function esc(text: unknown): string {
  return String(text).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

export function num(n: number): string {
  return (Math.round(n * 10) / 10).toString();
}

export const KIND_COLOURS: Record<string, string> = {
  web: '#3b82f6',
  model: '#8b5cf6',
  tracker: '#0d9488',
  mail: '#ea580c',
};

/** A runtime as the charts draw it: its name in the rows, its words and its colour (from its runtime module). */
export interface RuntimeLook {
  name: string;
  label: string;
  title: string;
  colour: string;
}

export function colourOf(runtimes: readonly RuntimeLook[], name: string): string {
  return runtimes.find((r) => r.name === name)?.colour ?? '#64748b';
}
