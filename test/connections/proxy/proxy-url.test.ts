import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../../src/errors.js';
import { parseProxyUrl } from '../../../src/connections/proxy/proxy-url.js';

describe('parseProxyUrl', () => {
  it('takes the credentials out of the URL, percent-decoded, and keeps scheme://host:port', () => {
    expect(parseProxyUrl('http://runner:p%40ss%3Aword@proxy.example:3128', 'url')).toEqual({
      url: 'http://proxy.example:3128',
      scheme: 'http',
      host: 'proxy.example',
      port: 3128,
      username: 'runner',
      password: 'p@ss:word',
    });
  });

  it('takes user:password from the secret, the password holding colons', () => {
    expect(parseProxyUrl('socks5://10.0.0.5:1080', 'url', 'runner:a:b:c')).toMatchObject({ url: 'socks5://10.0.0.5:1080', username: 'runner', password: 'a:b:c' });
  });

  it('writes the default port of each scheme, and keeps IPv6 brackets in the URL only', () => {
    expect(parseProxyUrl('http://proxy.example', 'url').url).toBe('http://proxy.example:80');
    expect(parseProxyUrl('https://proxy.example/', 'url').url).toBe('https://proxy.example:443');
    expect(parseProxyUrl('socks5://proxy.example', 'url').url).toBe('socks5://proxy.example:1080');
    expect(parseProxyUrl('http://[2001:db8::1]:8080', 'url')).toMatchObject({ url: 'http://[2001:db8::1]:8080', host: '2001:db8::1', port: 8080 });
    expect(parseProxyUrl('http://proxy.example:1', 'url').port).toBe(1);
    expect(parseProxyUrl('http://proxy.example:65535', 'url').port).toBe(65535);
  });

  it.each([
    ['ftp://proxy.example:21', 'must use http, https, socks5, not ftp:'],
    ['socks4://proxy.example:1080', 'not socks4:'],
    ['file:///etc/passwd', 'not file:'],
    ['javascript:alert(1)', 'not javascript:'],
    ['proxy.example:3128', 'not proxy.example:'],
    ['not a url', 'must be an absolute proxy URL'],
    ['http://proxy.example:3128/path', 'no path, query or fragment'],
    ['http://proxy.example:3128/?q=1', 'no path, query or fragment'],
    ['http://proxy.example:3128#frag', 'no path, query or fragment'],
    ['http://proxy.example:0', 'has port 0: a proxy\'s port is from 1 to 65535'],
    ['socks5://user:pass@proxy.example:00', 'has port 00: a proxy\'s port is from 1 to 65535'],
    ['http://[2001:db8::1]:0', 'has port 0:'],
    ['http://proxy.example:65536', 'has port 65536: a proxy\'s port is from 1 to 65535'],
    ['https://proxy.example:99999999999999999999', 'has port 999999999999...:'],
  ])('refuses %s with 400 invalid_proxy_url', (raw, message) => {
    let error: unknown;
    try {
      parseProxyUrl(raw, 'url');
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error).toMatchObject({ code: 'invalid_proxy_url', param: 'url' });
    expect((error as Error).message).toContain(message);
  });

  it('refuses credentials given twice, in the URL and the secret', () => {
    expect(() => parseProxyUrl('http://a:b@proxy.example:3128', 'url', 'c:d')).toThrow(/either in url or in secret/);
  });
});
