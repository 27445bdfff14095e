/**
 * `@chakra-ui/react` as @rjsf/chakra-ui sees it (scripts/vite-plugin-chakra-system.ts points its
 * imports here): the same components, but `defaultSystem` is the app's system. rjsf reads
 * `defaultSystem.isValidProperty` at load time, and Chakra's `defaultSystem` would bring every
 * recipe of the default theme (117 kB) into the shared chunks of every page.
 */
export * from '@chakra-ui/react';
export { system as defaultSystem } from './theme';
