import { describe, expect, it } from 'vitest';
import { browserRoutes } from './browser-routes.js';

const app = browserRoutes({
  newestVersion: 'v2',
  referenceUnits: { find: async () => [] },
  authenticate: async (_c, next) => next(),
});

function pageConfig(html: string): any {
  return JSON.parse(/<script type="application\/json" id="page-config">(.*?)<\/script>/s.exec(html)![1]!);
}

describe('the workbench page', () => {
  it('is served at /migration with the shell, the login and the workbench script', async () => {
    const response = await app.request('/migration');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain('<script type="module" src="/browser-assets/client/workbench-page.js"></script>');
    expect(html).toMatch(/<a href="\/migration" aria-current="page">Workbench<\/a>/);
    expect(html).toContain('<a href="/voyager">Voyager</a>');
    expect(pageConfig(html)).toEqual({
      versions: ['v1', 'v2'],
      version: 'v2',
      endpoints: {
        compare: '/migration/compare',
        shadow: '/migration/shadow',
        coverage: '/migration/coverage',
        usage: '/migration/usage',
        referenceUnits: '/browser/reference-units',
      },
      assets: { stylesheet: '/browser-assets/client/workbench.css' },
      adapterConfig: '/idp.json',
    });
  });

  it('loads nothing from another origin, and every asset it names is served', async () => {
    const html = await (await app.request('/migration')).text();
    expect(html).not.toMatch(/https?:|\/\/[a-z]/i);
    for (const url of [
      '/browser-assets/client/workbench-page.js',
      '/browser-assets/client/workbench.css',
      '/browser-assets/client/session.js',
    ]) {
      const response = await app.request(url);
      expect(response.status, url).toBe(200);
      expect(response.headers.get('content-type'), url).toMatch(
        url.endsWith('.css') ? /^text\/css/ : /^text\/javascript/,
      );
    }
  });

  it('is linked from the other tools', async () => {
    expect(await (await app.request('/voyager')).text()).toContain('<a href="/migration">Workbench</a>');
    expect((await app.request('/migration/')).headers.get('location')).toBe('/migration');
  });
});
