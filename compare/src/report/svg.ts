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

export const RUNTIME_COLOURS: Record<string, string> = {
  langgraph: '#2563eb',
  temporal: '#7c3aed',
  plain: '#64748b',
};
