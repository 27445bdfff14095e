import path from 'node:path';
import type { Plugin } from 'vite';

/**
 * Gives @rjsf/chakra-ui the app's Chakra system instead of Chakra's `defaultSystem` (see
 * src/shared/chakra-rjsf-shim.ts): its `import … from '@chakra-ui/react'` resolves to the shim.
 */
export function chakraSystemForRjsf(root = process.cwd()): Plugin {
  const shim = path.resolve(root, 'src/shared/chakra-rjsf-shim.ts');
  return {
    name: 'ghiseu:chakra-system-for-rjsf',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (source !== '@chakra-ui/react' || !importer) return null;
      if (!importer.replace(/\\/g, '/').includes('/node_modules/@rjsf/chakra-ui/')) return null;
      return this.resolve(shim, importer, { skipSelf: true });
    },
  };
}
