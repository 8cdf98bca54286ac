/** Text as HTML shows it, in an element or a quoted attribute: the five characters that could end either, as references. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
