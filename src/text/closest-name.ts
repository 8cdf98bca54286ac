/**
 * The known name a mistyped one most likely meant (`promt` → `prompt`, `Prompt` → `prompt`), or null when none is
 * close: at most one edit for short names, and one edit per three characters for longer ones, so that a member with
 * another meaning is not offered as a correction.
 */
export function closestName(typed: string, known: readonly string[]): string | null {
  const budget = Math.max(1, Math.floor(typed.length / 3));
  let best: { name: string; distance: number } | null = null;
  for (const name of known) {
    // Lengths further apart than the budget cannot be within it; this also keeps a long typed name cheap.
    if (Math.abs(name.length - typed.length) > budget) continue;
    const distance = name.toLowerCase() === typed.toLowerCase() ? 0 : editDistance(typed.toLowerCase(), name.toLowerCase());
    if (distance <= budget && (best === null || distance < best.distance)) best = { name, distance };
  }
  return best?.name ?? null;
}

/** Insertions, deletions, substitutions and swaps of neighbours (optimal string alignment distance). */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}
