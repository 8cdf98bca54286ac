/**
 * The pages the browser tests drive (test/sandbox/browser-*.test.ts), served inside the sandbox by
 * test/fixtures/sandbox-site.ts. Each reports what the page took by POSTing to /log, which the tests read back:
 * an action is judged by what the page got, never by what the action said.
 */
const LOG = `<script>function log(text) { fetch('/log', { method: 'POST', body: String(text) }); }</script>`;

export const BROWSER_PAGES: Record<string, string> = {
  '/refs': `<!doctype html><title>Refs</title>${LOG}
<h1>References</h1>
<button onclick="log('plain')">Plain button</button>
<button class="icon-trash" onclick="log('trash')"><svg width="16" height="16"><use href="#icon-trash"></use></svg></button>
<span class="star" style="display:inline-block;width:20px;height:20px;background:gold;cursor:pointer" onclick="log('star')"></span>
<shadow-widget></shadow-widget>
<div id="swap"><button onclick="log('old')">Swap me</button></div>
<button onclick="document.getElementById('swap').innerHTML = '<button onclick=&quot;log(\\'new\\')&quot;>Swap me</button>'">Replace</button>
<div style="display:none"><button>Hidden one</button></div>
<div aria-hidden="true"><p>Page behind a modal</p><button>Behind a modal</button></div>
<iframe title="same" src="/frame" width="320" height="110"></iframe>
<iframe title="cross" src="{{other}}/frame" width="320" height="110"></iframe>
<div style="position:absolute;top:6000px"><button>Far below</button></div>
<ul>${Array.from({ length: 60 }, (_, i) => `<li><a href="/item/${i}">Item ${i}</a></li>`).join('')}</ul>
<script>
customElements.define('shadow-widget', class extends HTMLElement {
  connectedCallback() {
    const root = this.attachShadow({ mode: 'open' });
    root.innerHTML = '<button>Shadow button</button>';
    root.querySelector('button').onclick = () => log('shadow');
  }
});
</script>`,
  '/frame': `<!doctype html><title>Frame</title>${LOG}<p>Framed</p><input aria-label="Framed field">
<button onclick="log('framed ' + location.origin.includes('localhost') + ' ' + document.querySelector('input').value)">Framed button</button>`,
  '/controls': `<!doctype html><title>Controls</title>${LOG}
<nav><span id="menu" onmouseenter="document.getElementById('sub').style.display = 'block'">Products</span>
  <div id="sub" style="display:none"><a href="#" onclick="log('menu laptops'); return false">Laptops</a></div></nav>
<label>Fruit <select onchange="log('fruit ' + this.value)"><option value="">Choose</option><option value="a">Apple</option><option value="b">Banana</option></select></label>
<label>Colours <select multiple onchange="log('colours ' + Array.from(this.selectedOptions).map((o) => o.value).join(','))"><option value="r">Red</option><option value="g">Green</option><option value="b">Blue</option></select></label>
<div role="listbox" aria-label="Size" style="display:inline-block">
  <div role="option" aria-selected="false" onclick="pick(this)">Small</div><div role="option" aria-selected="false" onclick="pick(this)">Large</div></div>
<div style="display:inline-block;position:relative"><input role="combobox" aria-label="City" aria-controls="cities" aria-expanded="false" aria-autocomplete="list" oninput="suggest(this)">
  <ul id="cities" role="listbox" style="position:absolute;background:#fff;margin:0" hidden></ul></div>
<input type="range" aria-label="Volume" min="0" max="100" step="5" value="10" onchange="log('volume ' + this.value)">
<div role="slider" aria-label="Rating" aria-valuemin="0" aria-valuemax="10" aria-valuenow="2" tabindex="0" style="display:inline-block;width:120px;height:16px;background:#ccc" onkeydown="rate(event)"></div>
<input type="date" aria-label="Start date" onchange="log('date ' + this.value)">
<input type="time" aria-label="Start time" onchange="log('time ' + this.value)">
<input aria-label="Code" value="ABC-123" readonly>
<button disabled>Disabled button</button>
<div style="position:relative;display:inline-block"><button onclick="log('covered')">Covered button</button><div class="cookie-banner" style="position:absolute;inset:0;background:rgba(0,0,0,.4)">Cookies</div></div>
<button ondblclick="log('double')">Double me</button>
<button oncontextmenu="log('right'); return false">Right me</button>
<button onclick="log('modifiers ' + event.ctrlKey + ' ' + event.shiftKey)">Modified</button>
<input aria-label="Notes" value="old text" oninput="log('notes [' + this.value + ']')">
<canvas width="200" height="80" style="position:fixed;left:1000px;top:600px;border:0" onclick="log('canvas ' + event.offsetX + ' ' + event.offsetY)"></canvas>
<div aria-label="Feed" role="region" style="height:80px;overflow:auto" onscroll="this.dataset.y = this.scrollTop">${Array.from({ length: 30 }, (_, i) => `<p>Post ${i}</p>`).join('')}</div>
<button onclick="setTimeout(() => { document.getElementById('later').textContent = 'Ready now'; }, 300)">Start</button><p id="later"></p>
<ul id="sortable">${['Alpha', 'Beta', 'Gamma'].map((name) => `<li draggable="true" style="padding:4px;border:1px solid #999;width:120px">${name}</li>`).join('')}</ul>
<script>
function pick(option) { option.setAttribute('aria-selected', 'true'); log('size ' + option.textContent); }
const CITIES = ['Amsterdam', 'Berlin', 'Bern', 'Lisbon'];
function suggest(input) {
  const list = document.getElementById('cities');
  list.innerHTML = '';
  for (const city of CITIES.filter((c) => c.toLowerCase().startsWith(input.value.toLowerCase()))) {
    const li = document.createElement('li');
    li.setAttribute('role', 'option');
    li.textContent = city;
    li.onclick = () => { input.value = city; list.hidden = true; input.setAttribute('aria-expanded', 'false'); log('city ' + city); };
    list.appendChild(li);
  }
  list.hidden = list.children.length === 0;
  input.setAttribute('aria-expanded', String(!list.hidden));
}
function rate(event) {
  const el = event.currentTarget;
  let v = Number(el.getAttribute('aria-valuenow'));
  if (event.key === 'ArrowRight') v = Math.min(10, v + 1);
  if (event.key === 'ArrowLeft') v = Math.max(0, v - 1);
  el.setAttribute('aria-valuenow', String(v));
  log('rating ' + v);
}
let dragged = null;
for (const li of document.querySelectorAll('#sortable li')) {
  li.addEventListener('dragstart', () => { dragged = li; });
  li.addEventListener('dragover', (e) => e.preventDefault());
  li.addEventListener('drop', (e) => {
    e.preventDefault();
    li.parentNode.insertBefore(dragged, li.nextSibling);
    log('order ' + Array.from(document.querySelectorAll('#sortable li')).map((x) => x.textContent).join(','));
  });
}
</script>`,
  '/long': `<!doctype html><title>Long</title>${LOG}${Array.from({ length: 150 }, (_, i) => `<p>Filler paragraph ${i}.</p>`).join('')}
<div id="more"></div><script>
let loaded = 0;
addEventListener('scroll', () => {
  if (loaded < 3 && innerHeight + scrollY >= document.body.scrollHeight - 10) {
    loaded += 1;
    const p = document.createElement('p');
    p.style.height = '900px';
    p.textContent = loaded === 3 ? 'The hidden treasure' : 'Loading more ' + loaded;
    document.getElementById('more').appendChild(p);
  }
});
</script>`,
  '/huge': `<!doctype html><title>Huge</title>${Array.from({ length: 600 }, (_, i) => `<p>Line ${String(i).padStart(3, '0')} of a long report, with words to fill it.</p>`).join('')}`,
  '/tabs': `<!doctype html><title>Tabs</title>${LOG}
<a href="/second" target="_blank">Open second</a>
<button onclick="window.open('/signin', 'signin', 'width=500,height=500')">Sign in</button>
<p id="who">Nobody signed in</p>
<script>addEventListener('message', (e) => { document.getElementById('who').textContent = 'Signed in as ' + e.data; log('signed in ' + e.data); });</script>`,
  '/second': `<!doctype html><title>Second</title><h1>Second page</h1><a href="/download/from-tab.txt">Get file</a>`,
  '/signin': `<!doctype html><title>Sign in</title><input aria-label="User">
<button onclick="opener.postMessage(document.querySelector('input').value, '*'); window.close()">Continue</button>
<button onmousedown="opener.postMessage(document.querySelector('input').value, '*'); window.close()">Continue at once</button>`,
  '/dialogs': `<!doctype html><title>Dialogs</title>${LOG}
<button onclick="log('confirm ' + confirm('Delete the item?'))">Delete</button>
<button onclick="alert('Saved!'); log('alerted')">Save</button>
<button onclick="log('prompt ' + prompt('Your name?', 'anon'))">Name</button>
<input aria-label="Draft" oninput="dirty = true">
<script>let dirty = false; addEventListener('beforeunload', (e) => { if (dirty) { e.preventDefault(); e.returnValue = ''; } });</script>`,
};

/** The reference a snapshot gives the element it shows as `line` (`button "Save"`), or a thrown error. */
export function refOf(snapshot: string, line: string): string {
  const escaped = line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const found = new RegExp(`- ${escaped}(?: \\[[^\\]]*\\])*? \\[ref=([a-z0-9]+)\\]`).exec(snapshot)?.[1];
  if (found === undefined) throw new Error(`no ${line} with a ref in:\n${snapshot}`);
  return found;
}
