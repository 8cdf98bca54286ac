/** The `<input>` types whose value has a fixed ISO form, which a page's own script and the browser read. */
export const DATE_FIELD_TYPES = ['date', 'time', 'datetime-local', 'month', 'week'] as const;
export type DateFieldType = (typeof DATE_FIELD_TYPES)[number];

export function isDateFieldType(type: string): type is DateFieldType {
  return (DATE_FIELD_TYPES as readonly string[]).includes(type);
}

/** The value for the field, and how an ambiguous text was read (said back to the agent), or why there is none. */
export type DateFieldValue = { value: string; reading: string | null } | { error: string };

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/**
 * Reads `text` as people write dates and times (`03/31/2010`, `31.03.2010`, `March 31, 2010`, `10:22 PM`, ISO) and
 * answers the field's own form (`2010-03-31`, `22:22`), which is the only one `fill` can set: a date field given
 * another form stays empty while the action says it typed. A slashed date is month/day/year unless its first number
 * cannot be a month; when both could be, the result says how it was read.
 */
export function dateFieldValue(type: DateFieldType, text: string): DateFieldValue {
  const input = text.trim();
  switch (type) {
    case 'date':
      return orError(readDate(input), `${JSON.stringify(text)} is not a date; write it as 2010-03-31, 03/31/2010 or March 31, 2010`);
    case 'time':
      return orError(readTime(input), `${JSON.stringify(text)} is not a time; write it as 22:22, 10:22 PM or 10:22:05`);
    case 'datetime-local': {
      const split = /^(.+?)(?:\s*[T,]\s*|\s+at\s+|\s+)(\d{1,2}(?::\d{2}){0,2}\s*(?:[ap]\.?m\.?)?)$/i.exec(input);
      const date = split === null ? null : readDate(split[1]!.trim());
      const time = split === null ? null : readTime(split[2]!.trim());
      if (date === null || time === null) return { error: `${JSON.stringify(text)} is not a date and time; write it as 2010-03-31 22:22 or 03/31/2010 10:22 PM` };
      return { value: `${date.value}T${time.value}`, reading: date.reading };
    }
    case 'month':
      return orError(readMonth(input), `${JSON.stringify(text)} is not a month; write it as 2010-03, 03/2010 or March 2010`);
    case 'week':
      return orError(readWeek(input), `${JSON.stringify(text)} is not a week; write it as 2010-W13, or a date in that week`);
    default: {
      const unreachable: never = type;
      throw new Error(`unknown field type ${String(unreachable)}`);
    }
  }
}

function orError(read: { value: string; reading: string | null } | null, error: string): DateFieldValue {
  return read ?? { error };
}

function readDate(text: string): { value: string; reading: string | null } | null {
  let m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(text);
  if (m !== null) return ymd(+m[1]!, +m[2]!, +m[3]!, null);
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})$/.exec(text);
  if (m !== null) {
    const [a, b, year] = [+m[1]!, +m[2]!, fullYear(m[3]!)];
    if (a > 12) return ymd(year, b, a, null);
    return ymd(year, a, b, b <= 12 && a !== b ? `read ${text} as month/day/year` : null);
  }
  m = /^(\d{1,2})[.-](\d{1,2})[.-](\d{2}|\d{4})$/.exec(text);
  if (m !== null) return ymd(fullYear(m[3]!), +m[2]!, +m[1]!, null);
  m = /^([a-z]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})$/i.exec(text);
  if (m !== null) return withMonthName(m[1]!, +m[2]!, +m[3]!);
  m = /^(\d{1,2})(?:st|nd|rd|th)?\s+([a-z]+)\.?,?\s+(\d{4})$/i.exec(text);
  if (m !== null) return withMonthName(m[2]!, +m[1]!, +m[3]!);
  return null;
}

function withMonthName(name: string, day: number, year: number): { value: string; reading: string | null } | null {
  const month = monthNumber(name);
  return month === null ? null : ymd(year, month, day, null);
}

function monthNumber(name: string): number | null {
  const lower = name.toLowerCase();
  if (lower.length < 3) return null;
  const index = MONTHS.findIndex((month) => month.startsWith(lower));
  return index < 0 ? null : index + 1;
}

function fullYear(digits: string): number {
  if (digits.length === 4) return +digits;
  const year = +digits;
  return year < 50 ? 2000 + year : 1900 + year;
}

function ymd(year: number, month: number, day: number, reading: string | null): { value: string; reading: string | null } | null {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (month < 1 || month > 12 || date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return { value: `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`, reading };
}

function readTime(text: string): { value: string; reading: null } | null {
  const m = /^(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?\s*([ap])?\.?(?:m\.?)?$/i.exec(text);
  if (m === null || (m[2] === undefined && m[4] === undefined)) return null;
  let hour = +m[1]!;
  const minute = m[2] === undefined ? 0 : +m[2];
  const second = m[3] === undefined ? null : +m[3];
  const half = m[4]?.toLowerCase();
  if (half !== undefined) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (half === 'p' ? 12 : 0);
  }
  if (hour > 23 || minute > 59 || (second !== null && second > 59)) return null;
  return { value: `${pad(hour, 2)}:${pad(minute, 2)}${second === null ? '' : `:${pad(second, 2)}`}`, reading: null };
}

function readMonth(text: string): { value: string; reading: null } | null {
  let m = /^(\d{4})[-/.](\d{1,2})$/.exec(text);
  const month = (year: number, value: number): { value: string; reading: null } | null => (value >= 1 && value <= 12 ? { value: `${pad(year, 4)}-${pad(value, 2)}`, reading: null } : null);
  if (m !== null) return month(+m[1]!, +m[2]!);
  m = /^(\d{1,2})[-/.](\d{4})$/.exec(text);
  if (m !== null) return month(+m[2]!, +m[1]!);
  m = /^([a-z]+)\.?,?\s+(\d{4})$/i.exec(text);
  if (m !== null) {
    const number = monthNumber(m[1]!);
    return number === null ? null : month(+m[2]!, number);
  }
  const date = readDate(text);
  return date === null ? null : { value: date.value.slice(0, 7), reading: null };
}

function readWeek(text: string): { value: string; reading: string | null } | null {
  const m = /^(\d{4})-?\s*W(\d{1,2})$/i.exec(text);
  if (m !== null) {
    const week = +m[2]!;
    return week >= 1 && week <= weeksIn(+m[1]!) ? { value: `${m[1]}-W${pad(week, 2)}`, reading: null } : null;
  }
  const date = readDate(text);
  if (date === null) return null;
  const [year, week] = isoWeek(date.value);
  return { value: `${pad(year, 4)}-W${pad(week, 2)}`, reading: `the week of ${date.value}` };
}

/** The ISO 8601 week-numbering year and week of a yyyy-mm-dd date. */
function isoWeek(iso: string): [number, number] {
  const date = new Date(`${iso}T00:00:00Z`);
  const weekday = (date.getUTCDay() + 6) % 7;
  // The Thursday of the date's week decides its year.
  date.setUTCDate(date.getUTCDate() - weekday + 3);
  const year = date.getUTCFullYear();
  const firstThursday = new Date(Date.UTC(year, 0, 4));
  firstThursday.setUTCDate(firstThursday.getUTCDate() - ((firstThursday.getUTCDay() + 6) % 7) + 3);
  return [year, 1 + Math.round((date.getTime() - firstThursday.getTime()) / (7 * 86_400_000))];
}

function weeksIn(year: number): number {
  return isoWeek(`${pad(year, 4)}-12-28`)[1];
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}
