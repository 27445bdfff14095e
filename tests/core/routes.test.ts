import { describe, expect, it } from 'vitest';
import { isKnownRouteName, routePath } from '@/core/routes';

describe('named routes', () => {
  it('knows the app routes and the step routes', () => {
    expect(routePath('login')).toBe('/login');
    expect(routePath('requesting-company-step-1')).toBe('/infiintare-pfa/1');
    expect(routePath('collect-user-profile-step', 1)).toBe('/inregistrare/5');
    expect(isKnownRouteName('dashboard')).toBe(true);
  });

  it('is not fooled by the properties every object has', () => {
    for (const name of ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf']) {
      expect(isKnownRouteName(name), name).toBe(false);
      expect(routePath(name), name).toBeNull();
    }
  });
});
