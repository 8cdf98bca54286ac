import EmailReplyParser from 'email-reply-parser';

/**
 * How much of a reply's text is searched for where the quoted history starts. The parser's expressions run on
 * JavaScript's backtracking engine (it prefers RE2, which is not installed), so they only ever see a bounded
 * prefix; what a person writes above the quote is far shorter.
 */
const SEARCHED_CHARS = 64 * 1024;

/** The new text of a reply: the quoted history (`On ... wrote:`, `> ...`, forwarded headers) and signatures removed. */
export function replyText(text: string): string {
  const head = text.length > SEARCHED_CHARS ? text.slice(0, SEARCHED_CHARS) : text;
  return new EmailReplyParser().read(head.replace(/\r\n/g, '\n')).getVisibleText().trim();
}
