declare module 'virtual:step-validators' {
  import type { ValidatorFunctions } from '@rjsf/validator-ajv8';
  /** schemas/<file> -> its precompiled validator functions (see scripts/vite-plugin-step-validators.ts). */
  const loaders: Record<string, () => Promise<ValidatorFunctions>>;
  export default loaders;
}
