/** The part of email-reply-parser (1.9, which ships no types) that Errand uses. */
declare module 'email-reply-parser' {
  class Email {
    getVisibleText(): string;
    getQuotedText(): string;
  }
  export default class EmailReplyParser {
    read(text: string): Email;
    parseReply(text: string): string;
  }
}
