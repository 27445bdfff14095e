import { describe, expect, it } from 'vitest';
import { isKnownRouteName, routePath } from '@/core/routes';
import newPfa from '../../flows/new-pfa.json';
import existingPfa from '../../flows/existing-pfa.json';
import type { Flow } from '@/core/flow';

const FLOWS = [newPfa, existingPfa] as unknown as Flow[];

describe('named routes', () => {
  it('knows the app routes and the step routes', () => {
    expect(routePath('login')).toBe('/login');
    expect(routePath('requesting-company-step-1', 2, FLOWS)).toBe('/infiintare-pfa/1');
    expect(routePath('existing-company-step-7', 1, FLOWS)).toBe('/inregistrare/7');
    expect(routePath('collect-user-profile-step', 1, FLOWS)).toBe('/inregistrare/5');
    expect(routePath('collect-user-profile-step', 2, FLOWS)).toBe('/infiintare-pfa/1');
    expect(isKnownRouteName('dashboard')).toBe(true);
    expect(isKnownRouteName('requesting-company-step-9', FLOWS)).toBe(true);
    expect(isKnownRouteName('requesting-company-step-10', FLOWS)).toBe(false);
  });

  it('takes the steps and the identity step from the flow files, not from a table of its own', () => {
    // A flow with its identity step moved and an extra step: the routes follow the file.
    const moved = structuredClone(newPfa) as unknown as Flow;
    const identity = moved.steps.splice(1, 1)[0];
    moved.steps.splice(4, 0, { ...identity, path: '/infiintare-pfa/42' });
    moved.steps.push({ ...moved.steps[8], id: 'requesting-company-step-extra', path: '/infiintare-pfa/10', rule: undefined });
    expect(routePath('collect-user-profile-step', 2, [moved])).toBe('/infiintare-pfa/42');
    expect(routePath('requesting-company-step-extra', 2, [moved])).toBe('/infiintare-pfa/10');
    expect(routePath('requesting-company-step-extra', 2, FLOWS)).toBeNull();
    // Without the flow files only the app's own routes are known.
    expect(routePath('requesting-company-step-1')).toBeNull();
    expect(isKnownRouteName('collect-user-profile-step')).toBe(false);
  });

  it('is not fooled by the properties every object has', () => {
    for (const name of ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf']) {
      expect(isKnownRouteName(name, FLOWS), name).toBe(false);
      expect(routePath(name, 2, FLOWS), name).toBeNull();
    }
  });
});
