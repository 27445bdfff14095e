import { describe, expect, it } from 'vitest';
import { COMPILE_HINT, compileHints } from '../../scripts/vite-plugin-compile-hints';

type Hook = (this: unknown, options: unknown, bundle: Record<string, unknown>) => void;

describe('the compile hint of the guest build (scripts/vite-plugin-compile-hints.ts)', () => {
  it('goes first in every chunk, once, with the chunk’s source map a line lower; assets are left as they are', () => {
    const bundle: Record<string, unknown> = {
      'assets/start-a1.js': { type: 'chunk', code: 'var e=1;export{e as t};', map: { mappings: 'AAAA,IAAI' } },
      'assets/login-b2.js': { type: 'chunk', code: `${COMPILE_HINT}\nimport{t}from"./start-a1.js";`, map: { mappings: ';AAAA' } },
      'assets/logo.svg': { type: 'asset', source: '<svg/>' },
    };
    const hook = compileHints().generateBundle as Hook;
    hook.call({}, {}, bundle);
    expect(bundle['assets/start-a1.js']).toEqual({ type: 'chunk', code: `${COMPILE_HINT}\nvar e=1;export{e as t};`, map: { mappings: ';AAAA,IAAI' } });
    expect(bundle['assets/login-b2.js']).toEqual({ type: 'chunk', code: `${COMPILE_HINT}\nimport{t}from"./start-a1.js";`, map: { mappings: ';AAAA' } });
    expect(bundle['assets/logo.svg']).toEqual({ type: 'asset', source: '<svg/>' });
    expect(COMPILE_HINT).toBe('//# allFunctionsCalledOnLoad');
  });
});
