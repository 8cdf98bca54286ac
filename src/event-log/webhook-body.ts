/**
 * A webhook's body as its receiver gets it: `{"event": <type>, "data": <data>}`, with `data` as JSON text written
 * as it is (an email's `metadata` keeps its sender's bytes). `"test": true` marks a body made on request to try a
 * receiver (`errand webhooks test`, `errand email simulate-reply`); real traffic never has the member.
 */
export function webhookBody(type: string, dataJson: string, test = false): string {
  return `{"event":${JSON.stringify(type)},"data":${dataJson}${test ? ',"test":true' : ''}}`;
}
