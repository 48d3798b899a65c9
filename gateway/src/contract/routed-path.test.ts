import { describe, expect, it } from 'vitest';
import { isUnderPrefix, routedMethod, routedPath } from './routed-path.js';

describe('routed path', () => {
  it('drops trailing slashes but keeps the root', () => {
    expect(routedPath('/service/o/')).toBe('/service/o');
    expect(routedPath('/service/details/create//')).toBe('/service/details/create');
    expect(routedPath('/service/e/x')).toBe('/service/e/x');
    expect(routedPath('/')).toBe('/');
  });

  it('routes HEAD as GET', () => {
    expect(routedMethod('HEAD')).toBe('GET');
    expect(routedMethod('POST')).toBe('POST');
  });

  it('puts a path under a prefix with or without its trailing slash', () => {
    expect(isUnderPrefix('/service/o', '/service/o/')).toBe(true);
    expect(isUnderPrefix('/service/o/x/', '/service/o/')).toBe(true);
    expect(isUnderPrefix('/service/ou', '/service/o/')).toBe(false);
    expect(isUnderPrefix('/service/ou/x', '/service/o')).toBe(true);
  });
});
