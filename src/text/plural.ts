/** `1 file`, `2 files`, `0 files`; `plural(3, 'entry', 'entries')` for nouns that do not just take an s. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}
