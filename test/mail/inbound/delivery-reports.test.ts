import { describe, expect, it } from 'vitest';
import { readReport } from '../../../src/mail/inbound/delivery-reports.js';

const report = (boundary: string, body: string) => Buffer.from(`Subject: x\r\nContent-Type: multipart/report\r\n\r\n${body.replace(/\n/g, '\r\n')}`);
const type = (reportType: string, boundary = 'B') => ({ value: 'multipart/report', params: { 'report-type': reportType, boundary } });

describe('readReport', () => {
  it('reads every recipient block of a delivery-status report, base64 included', () => {
    const fields = 'Reporting-MTA: dns; mx.test\n\nFinal-Recipient: rfc822; <A@Example.test>\nAction: failed\nStatus: 5.1.1 (user unknown)\n\nFinal-Recipient: rfc822; b@example.test\nAction: delayed\nStatus: 4.4.7\n';
    const raw = report('B', `--B\nContent-Type: text/plain\n\nsorry\n--B\nContent-Type: message/delivery-status\nContent-Transfer-Encoding: base64\n\n${Buffer.from(fields).toString('base64')}\n--B--\n`);
    expect(readReport(raw, type('delivery-status'))).toEqual({
      kind: 'delivery-status',
      recipients: [
        { address: 'a@example.test', action: 'failed', status: '5.1.1', diagnostic: null },
        { address: 'b@example.test', action: 'delayed', status: '4.4.7', diagnostic: null },
      ],
    });
  });

  it('reads a feedback report', () => {
    const raw = report('F', '--F\nContent-Type: message/feedback-report\n\nFeedback-Type: Abuse\nOriginal-Rcpt-To: <x@example.test>\n\n--F--\n');
    expect(readReport(raw, type('feedback-report', 'F'))).toEqual({ kind: 'feedback', feedbackType: 'abuse', userAgent: null, originalRcptTo: ['x@example.test'] });
  });

  it('answers null for anything else: other types, no report part, no recipients, garbage', () => {
    expect(readReport(Buffer.from('Subject: x\r\n\r\nhi'), { value: 'text/plain', params: {} })).toBeNull();
    expect(readReport(report('B', '--B\nContent-Type: text/plain\n\nhi\n--B--\n'), type('delivery-status'))).toBeNull();
    expect(readReport(report('B', '--B\nContent-Type: message/delivery-status\n\nReporting-MTA: dns; x\n--B--\n'), type('delivery-status'))).toBeNull();
    expect(readReport(Buffer.from('\u0000\u0001garbage'), type('delivery-status'))).toBeNull();
    expect(readReport(report('B', 'no parts at all'), type('disposition-notification'))).toBeNull();
  });
});
