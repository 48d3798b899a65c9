import { describe, expect, it } from 'vitest';
import { matchRedirectUri, parseBasicAuthorization } from './clients.js';
import { sameSecret } from './secrets.js';

describe('redirect URI matching', () => {
  const registered = ['http://localhost:8080/*', 'https://app.example/callback'];
  const cases: Array<[string, string | undefined]> = [
    ['http://localhost:8080/', 'http://localhost:8080/'],
    ['http://localhost:8080', 'http://localhost:8080/'],
    ['http://localhost:8080/graphql/v2?x=1', 'http://localhost:8080/graphql/v2?x=1'],
    ['http://LOCALHOST:8080/a/../b', 'http://localhost:8080/b'],
    ['https://app.example/callback', 'https://app.example/callback'],
    ['https://app.example/callback/more', undefined],
    ['https://app.example/callback?extra=1', undefined],
    ['http://localhost:8080.evil.example/', undefined],
    ['http://localhost:8080@evil.example/', undefined],
    ['http://user:pass@localhost:8080/', undefined],
    ['http://localhost:8080/#frag', undefined],
    ['http://localhost:80801/', undefined],
    ['javascript://localhost:8080/%0aalert(1)', undefined],
    ['/relative', undefined],
  ];
  for (const [requested, expected] of cases) {
    it(`${requested} → ${expected ?? 'refused'}`, () => {
      expect(matchRedirectUri(registered, requested)).toBe(expected);
    });
  }

  it('lets a wildcard pattern with a query compare the query too', () => {
    expect(matchRedirectUri(['https://a.example/cb?tenant=*'], 'https://a.example/cb?tenant=7')).toBe(
      'https://a.example/cb?tenant=7',
    );
    expect(
      matchRedirectUri(['https://a.example/cb?tenant=*'], 'https://a.example/cb?other=7'),
    ).toBeUndefined();
  });

  it('keeps a prefix without trailing slash from matching a longer host', () => {
    expect(matchRedirectUri(['http://localhost:8080*'], 'http://localhost:8080/x')).toBe(
      'http://localhost:8080/x',
    );
    expect(matchRedirectUri(['http://localhost/app*'], 'http://localhost/application')).toBe(
      'http://localhost/application',
    );
  });
});

describe('client authentication helpers', () => {
  it('decodes client_secret_basic with form-encoded id and secret', () => {
    const header = `Basic ${Buffer.from('my%3Aclient:p%C3%A5ss+word').toString('base64')}`;
    expect(parseBasicAuthorization(header)).toEqual(['my:client', 'påss word']);
    expect(parseBasicAuthorization('Bearer abc')).toBeUndefined();
    expect(parseBasicAuthorization(`Basic ${Buffer.from('no-colon').toString('base64')}`)).toBeUndefined();
  });

  it('compares secrets exactly, whatever their lengths', () => {
    expect(sameSecret('integration-dev-secret', 'integration-dev-secret')).toBe(true);
    expect(sameSecret('integration-dev-secre', 'integration-dev-secret')).toBe(false);
    expect(sameSecret('', 'x')).toBe(false);
  });
});
