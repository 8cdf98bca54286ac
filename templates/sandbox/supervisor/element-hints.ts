/**
 * Runs in the page (it is sent as source: nothing outside its body): what identifies an element that has no
 * accessible name, such as an icon button (reply, star, trash): a tooltip, its icon's class, image or SVG symbol, a
 * test id. The snapshot shows it beside the element's reference, with its position, so that the agent can tell one
 * icon from another.
 */
export function elementHint(el: Element): string {
  const parts: string[] = [];
  const seen = new Set<string>();
  const add = (label: string, value: string | null | undefined): void => {
    const text = (value ?? '').replace(/\s+/g, ' ').trim().slice(0, 60);
    if (text === '' || seen.has(text)) return;
    seen.add(text);
    parts.push(`${label} ${JSON.stringify(text)}`);
  };
  const fileName = (url: string | null): string | null => {
    if (url === null || url.startsWith('data:')) return null;
    const path = url.split(/[?#]/)[0] ?? '';
    return path.slice(path.lastIndexOf('/') + 1) || null;
  };
  const meaningfulClasses = (node: Element): string[] =>
    Array.from(node.classList).filter((name) => name.length > 2 && !/^(css|sc|jsx|emotion)-/.test(name) && !/[0-9].*[a-z].*[0-9]|^[a-z]{1,3}[A-Z0-9]/.test(name)).slice(0, 3);

  for (const attribute of ['title', 'data-tooltip', 'data-original-title', 'data-title', 'aria-description', 'alt']) add('title', el.getAttribute(attribute));
  const icon = el.matches('i, svg, img') ? el : (el.querySelector('svg, img, i, [data-icon]') ?? el.querySelector('[class*="icon" i]'));
  if (icon !== null) {
    if (icon instanceof HTMLImageElement) add('image', fileName(icon.getAttribute('src')) ?? icon.alt);
    if (icon.tagName.toLowerCase() === 'svg') {
      add('icon', icon.querySelector('title')?.textContent);
      const use = icon.querySelector('use');
      add('icon', (use?.getAttribute('href') ?? use?.getAttribute('xlink:href') ?? '').replace(/^.*#/, ''));
    }
    add('icon', icon.getAttribute('data-icon'));
    if (icon !== el) add('icon', meaningfulClasses(icon).join(' '));
  }
  add('class', meaningfulClasses(el).join(' '));
  const background = getComputedStyle(el).backgroundImage;
  const url = /url\("?([^")]+)"?\)/.exec(background)?.[1] ?? null;
  add('image', fileName(url));
  for (const attribute of ['data-testid', 'data-test', 'data-action', 'name', 'id']) add(attribute, el.getAttribute(attribute));
  return parts.slice(0, 4).join(', ');
}
