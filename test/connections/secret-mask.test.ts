import { describe, expect, it } from 'vitest';
import { MIN_ENCODED_SECRET_LENGTH } from '../../src/connections/secret-forms.js';
import { SecretMask } from '../../src/connections/secret-mask.js';

describe('SecretMask', () => {
  const mask = new SecretMask([
    { name: 'github', value: 'ghp_abc"def/ghi' },
    { name: 'inner', value: 'abc' + 'xyz123' },
  ]);

  it('replaces each secret with [secret:<name>], wherever it occurs', () => {
    expect(mask.text('token=ghp_abc"def/ghi; again ghp_abc"def/ghi')).toBe('token=[secret:github]; again [secret:github]');
  });

  it('also masks the forms a value takes inside JSON strings and URLs', () => {
    expect(mask.text(JSON.stringify({ t: 'ghp_abc"def/ghi' }))).toBe('{"t":"[secret:github]"}');
    expect(mask.text(`https://x.test/?t=${encodeURIComponent('ghp_abc"def/ghi')}`)).toBe('https://x.test/?t=[secret:github]');
  });

  it('masks strings anywhere in a JSON value, keys included', () => {
    expect(mask.value({ a: ['abcxyz123', { abcxyz123: 1 }], n: 2 })).toEqual({ a: ['[secret:inner]', { '[secret:inner]': 1 }], n: 2 });
  });

  it('masks a longer secret whole when a shorter one is part of it', () => {
    const nested = new SecretMask([
      { name: 'short', value: 'secret1' },
      { name: 'long', value: 'my-secret1-and-more' },
    ]);
    expect(nested.text('my-secret1-and-more / secret1')).toBe('[secret:long] / [secret:short]');
  });

  it('masks every character of two secrets printed so that they share characters', () => {
    const overlapping = new SecretMask([
      { name: 'first', value: 'tok-AAAA-1111' },
      { name: 'second', value: '1111-BBBB-tok2' },
    ]);
    expect(overlapping.text('<tok-AAAA-1111-BBBB-tok2>')).toBe('<[secret:second]>');
  });

  it('changes nothing without secrets', () => {
    expect(SecretMask.none.isEmpty).toBe(true);
    expect(SecretMask.none.text('abc')).toBe('abc');
  });
});

describe('SecretMask on encoded secrets (issue 21, item 7)', () => {
  const TOKEN = 'ghp_16C7e42F292c6912E7710c838347Ae178B4a';
  const SPECIAL = 'p@ss/w0rd+key=&"x y"!';
  const mask = new SecretMask([
    { name: 'gh', value: TOKEN },
    { name: 'pw', value: SPECIAL },
  ]);
  const bytes = Buffer.from(TOKEN);

  it.each([
    ['base64', bytes.toString('base64')],
    ['base64 without padding', bytes.toString('base64').replace(/=+$/, '')],
    ['base64url', bytes.toString('base64url')],
    ['base64url with padding', bytes.toString('base64').replace(/\+/g, '-').replace(/\//g, '_')],
    ['hex', bytes.toString('hex')],
    ['HEX', bytes.toString('hex').toUpperCase()],
    ['reversed', [...TOKEN].reverse().join('')],
  ])('masks the %s form whole', (_form, encoded) => {
    expect(mask.text(`value: ${encoded}.`)).toBe('value: [secret:gh].');
  });

  it.each([
    ['encodeURIComponent', encodeURIComponent(SPECIAL)],
    ['RFC 3986, strictly', encodeURIComponent(SPECIAL).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)],
    ['a form body', new URLSearchParams({ k: SPECIAL }).toString().slice(2)],
    ['lower-case hex digits', encodeURIComponent(SPECIAL).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase())],
  ])('masks the URL-encoded form (%s)', (_form, encoded) => {
    expect(mask.text(`?k=${encoded}&next=1`)).toBe('?k=[secret:pw]&next=1');
  });

  it('masks the base64 of longer text holding the secret, at every offset and in both alphabets, leaving no stretch of it', () => {
    for (let before = 0; before < 6; before++) {
      for (let after = 0; after < 4; after++) {
        const text = Buffer.concat([Buffer.from('Authorization: Bearer '.slice(0, 16 + before)), bytes, Buffer.from('\r\nAccept: */*'.slice(0, after))]);
        for (const encoding of ['base64', 'base64url'] as const) {
          const masked = mask.text(text.toString(encoding));
          expect(masked, `${encoding}, ${before} bytes before, ${after} after`).toContain('[secret:gh]');
          // Whatever is left of the encoded text decodes to no part of the token longer than the two bytes at its edges.
          const left = masked.split('[secret:gh]').map((part) => Buffer.from(part, encoding).toString('latin1')).join('|');
          for (let i = 0; i + 3 <= TOKEN.length; i++) expect(left.includes(TOKEN.slice(i, i + 3)), `${encoding}: ${TOKEN.slice(i, i + 3)} left in ${left}`).toBe(false);
        }
      }
    }
  });

  it('masks the hex of longer text holding the secret, as xxd -p prints it', () => {
    const dump = Buffer.from(`token=${TOKEN};`).toString('hex');
    expect(mask.text(dump)).toBe(`${Buffer.from('token=').toString('hex')}[secret:gh]${Buffer.from(';').toString('hex')}`);
  });

  it("masks the URL-encoded form as a browser shows it in a query, its ' escaped", () => {
    const quoted = new SecretMask([{ name: 'q', value: "it's!a-s3cret" }]);
    expect(quoted.text('?k=it%27s!a-s3cret&x=1')).toBe('?k=[secret:q]&x=1');
  });

  it('masks the part of a secret left on either side of a cut in long output', () => {
    const cut = (head: string, tail: string) => `${head}\n…[12 345 characters omitted]…\n${tail}`;
    expect(mask.text(cut(`xxxx${TOKEN.slice(0, 9)}`, `${TOKEN.slice(-7)}yyyy`))).toBe(cut('xxxx[secret:gh]', '[secret:gh]yyyy'));
    const hex = bytes.toString('hex');
    expect(mask.text(cut(`dump ${hex.slice(0, 30)}`, 'rest'))).toBe(cut('dump [secret:gh]', 'rest'));
    // Three characters say too little to be worth garbling text for; a cut elsewhere is left as it is.
    expect(mask.text(cut(`head ${TOKEN.slice(0, 3)}`, 'tail'))).toBe(cut(`head ${TOKEN.slice(0, 3)}`, 'tail'));
  });

  it(`masks a secret shorter than ${MIN_ENCODED_SECRET_LENGTH} characters only as it is, so that its encodings do not garble ordinary text`, () => {
    const short = new SecretMask([{ name: 'pin', value: 'abc123' }]);
    expect(short.text('pin abc123')).toBe('pin [secret:pin]');
    for (const form of ['321cba', Buffer.from('abc123').toString('base64'), Buffer.from('abc123').toString('hex')]) expect(short.text(`x ${form}`)).toBe(`x ${form}`);
  });

  it('masks the result of a model that re-encoded a secret, inside JSON values', () => {
    expect(mask.value({ echoed: bytes.toString('base64'), nested: [bytes.toString('hex')] })).toEqual({ echoed: '[secret:gh]', nested: ['[secret:gh]'] });
  });
});

describe('SecretMask on the encodings sites make themselves (issue 31, item 3)', () => {
  const SECRET = `Pa&s <w>"o'r!d/%+x`;
  const mask = new SecretMask([{ name: 'pw', value: SECRET }]);
  const component = encodeURIComponent;
  const strict = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const form = (s: string) => new URLSearchParams({ k: s }).toString().slice(2);
  const lower = (s: string) => s.replace(/%([0-9A-F]{2})/g, (_e, hex: string) => `%${hex.toLowerCase()}`);

  it.each([
    ['encodeURIComponent twice', component(component(SECRET))],
    ['a form body inside encodeURIComponent (a returnUrl built from a form)', component(form(SECRET))],
    ['encodeURIComponent inside a form body', form(component(SECRET))],
    ['RFC 3986 twice', strict(strict(SECRET))],
    ['a form body twice', form(form(SECRET))],
    ['lower-case hex digits, twice', lower(component(lower(component(SECRET))))],
    ["encodeURIComponent twice, as a browser shows it in a query (its ' escaped)", component(component(SECRET)).replace(/'/g, '%27')],
  ])('masks the secret percent-encoded twice (%s)', (_form, encoded) => {
    expect(encoded).toContain('%25');
    expect(mask.text(`/login?returnUrl=%2Flanding%3Fpw%3D${encoded}&x=1`)).toBe('/login?returnUrl=%2Flanding%3Fpw%3D[secret:pw]&x=1');
  });

  const escape = (map: Record<string, string>) => [...SECRET].map((c) => map[c] ?? c).join('');
  const named = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
  const numeric = (reference: (code: number) => string, chars: string) => Object.fromEntries([...chars].map((c) => [c, reference(c.charCodeAt(0))]));
  it.each([
    ['named, apostrophe as &#39; (lodash, Rails)', escape({ ...named, "'": '&#39;' })],
    ['named, apostrophe as &#x27; (Python, React)', escape({ ...named, "'": '&#x27;' })],
    ['named, apostrophe as &#039; (PHP)', escape({ ...named, "'": '&#039;' })],
    ['named, apostrophe as &apos; (XML)', escape({ ...named, "'": '&apos;' })],
    ['&#34; and &#39; for the quotes (Go, Jinja)', escape({ ...named, '"': '&#34;', "'": '&#39;' })],
    ['only & < > (text in the DOM)', escape({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })],
    ['only & and " (an attribute in the DOM)', escape({ '&': '&amp;', '"': '&quot;' })],
    ['decimal references for the five', escape(numeric((c) => `&#${c};`, `&<>"'`))],
    ['hex references for the five, upper case', escape(numeric((c) => `&#x${c.toString(16).toUpperCase()};`, `&<>"'`))],
    ['hex references for the five, lower case', escape(numeric((c) => `&#x${c.toString(16)};`, `&<>"'`))],
    ['decimal references for every sign (ESAPI)', escape(numeric((c) => `&#${c};`, `&<>"'!/%+`))],
    ['hex references for every sign, upper case', escape(numeric((c) => `&#x${c.toString(16).toUpperCase()};`, `&<>"'!/%+`))],
    ['hex references for every sign, lower case', escape(numeric((c) => `&#x${c.toString(16)};`, `&<>"'!/%+`))],
  ])('masks the secret as HTML escapes it: %s', (_style, escaped) => {
    expect(escaped).not.toBe(SECRET);
    expect(mask.text(`<input value="${escaped}"><p>${escaped}</p>`)).toBe('<input value="[secret:pw]"><p>[secret:pw]</p>');
  });

  it('adds no form for a secret that no URL or HTML escaper changes', () => {
    const TOKEN = 'ghp_16C7e42F292c6912E7710c838347Ae178B4a';
    const forms = new SecretMask([{ name: 'gh', value: TOKEN }]).allForms.map((f) => f.form);
    expect(forms.filter((f) => f.includes('&') || f.includes('%'))).toEqual([]);
  });

  it(`masks a secret shorter than ${MIN_ENCODED_SECRET_LENGTH} characters in HTML and twice URL-encoded too: those forms are as long as it`, () => {
    const short = new SecretMask([{ name: 'pin', value: 'a&b"c1' }]);
    expect(short.text('<p>a&amp;b&quot;c1</p> ?r=a%2526b%2522c1')).toBe('<p>[secret:pin]</p> ?r=[secret:pin]');
  });
});
