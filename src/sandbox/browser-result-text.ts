import type { BrowserResult, PageProblem } from './protocol.js';

/**
 * What the model reads back: where the page is, what went wrong if anything, the tabs when there are several, a
 * dialog waiting for an answer, and the action's text with how much of the page it shows.
 */
export function browserResultText(result: BrowserResult): string {
  const lines: string[] = [];
  if (result.problem) lines.push(`PROBLEM: ${problemLine(result.problem)}`, problemAdvice(result.problem));
  lines.push(`url: ${result.url ?? '(none)'}`, `title: ${result.title ?? '(none)'}`, `http status: ${result.status ?? '(none)'}`);
  if (result.tabs.length > 1) {
    lines.push(`tabs (tab {index} switches):`, ...result.tabs.map((tab) => `  ${tab.index}${tab.current ? ' (current)' : ''}: ${tab.title ?? '(no title)'} - ${tab.url ?? 'about:blank'}`));
  }
  if (result.dialog !== null) {
    const said = result.dialog.type === 'beforeunload' ? 'asks whether to leave the page' : JSON.stringify(result.dialog.message);
    const prompt = result.dialog.type === 'prompt' ? ` (default answer ${JSON.stringify(result.dialog.defaultValue)}; dialog {accept: true, text} answers it)` : '';
    const article = result.dialog.type === 'alert' ? 'an' : 'a';
    lines.push(`DIALOG: ${article} ${result.dialog.type} ${said} holds the page${prompt}; answer with dialog {accept: true} or {accept: false}`);
  }
  if (result.extent !== null) lines.push(`shown: ${result.extent}`);
  if (result.text !== '') lines.push('', result.text);
  return lines.join('\n');
}

export function problemLine(problem: PageProblem): string {
  return problem.kind === 'http_error' ? `http_error ${problem.status}: ${problem.message}` : `${problem.kind}: ${problem.message}`;
}

function problemAdvice(problem: PageProblem): string {
  switch (problem.kind) {
    case 'captcha':
      return 'The page shows a captcha or bot check. Do not try to solve it; if there is no other way, finish with failure_reason "captcha".';
    case 'proxy_failed':
      return 'The run\'s proxy failed, not the site; the run ends as site_down.';
    case 'host_unreachable':
      return 'This sandbox can never reach that address, so retrying will not help: finish with failure_reason "site_down" and say why in failure_detail.';
    default:
      return 'The site could not be used. Retry once if it may be transient; if it stays down, finish with failure_reason "site_down".';
  }
}
