/**
 * A webhook's body as its receiver gets it: `{"event": <type>, "livemode": <bool>, "data": <data>}`, with `data` as
 * JSON text written as it is (an email's `metadata` keeps its sender's bytes). `livemode` is false for an event of
 * test mode (issue 25). `"test": true` marks a body made on request to try a receiver (`errand webhooks test`,
 * `errand email simulate-reply`); real traffic never has the member.
 */
export function webhookBody(type: string, dataJson: string, livemode: boolean, test = false): string {
  return `{"event":${JSON.stringify(type)},"livemode":${String(livemode)},"data":${dataJson}${test ? ',"test":true' : ''}}`;
}
