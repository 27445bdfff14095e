import { createSystem, defaultBaseConfig, defineConfig, mergeConfigs } from '@chakra-ui/react';
import {
  alertSlotRecipe,
  animationStyles,
  breakpoints,
  buttonRecipe,
  cardSlotRecipe,
  checkboxCardSlotRecipe,
  checkboxSlotRecipe,
  checkmarkRecipe,
  collapsibleSlotRecipe,
  comboboxSlotRecipe,
  containerRecipe,
  cssVarsPrefix,
  cssVarsRoot,
  dataListSlotRecipe,
  dialogSlotRecipe,
  fieldSlotRecipe,
  fieldsetSlotRecipe,
  globalCss,
  headingRecipe,
  iconRecipe,
  inputAddonRecipe,
  inputRecipe,
  keyframes,
  layerStyles,
  linkRecipe,
  listSlotRecipe,
  nativeSelectSlotRecipe,
  numberInputSlotRecipe,
  progressSlotRecipe,
  radioCardSlotRecipe,
  radioGroupSlotRecipe,
  radiomarkRecipe,
  selectSlotRecipe,
  semanticTokens,
  separatorRecipe,
  skipNavLinkRecipe,
  sliderSlotRecipe,
  spinnerRecipe,
  textStyles,
  textareaRecipe,
  toastSlotRecipe,
  tokens,
} from '@chakra-ui/react/theme';

/**
 * Chakra's toast with text at 4.5:1 or more (issue 17: white on green.600 at 80% opacity was 2.63:1):
 * the coloured toasts one shade darker, the description at full opacity.
 */
const toastBase = toastSlotRecipe.base ?? {};
const toastRecipe = {
  ...toastSlotRecipe,
  base: {
    ...toastBase,
    root: {
      ...toastBase.root,
      '&[data-type=warning]': { ...toastBase.root?.['&[data-type=warning]'], bg: 'orange.700', color: 'white' },
      '&[data-type=success]': { ...toastBase.root?.['&[data-type=success]'], bg: 'green.700', color: 'white' },
      '&[data-type=error]': { ...toastBase.root?.['&[data-type=error]'], bg: 'red.700', color: 'white' },
    },
    description: { ...toastBase.description, opacity: 1 },
  },
} as typeof toastSlotRecipe;

/**
 * Chakra's button with a darker hover of the solid variant (issue 17: the selected toggles, solid
 * blue at 90% opacity on hover, gave white text 4.36:1): the palette's 700 shade, 6:1 or more.
 */
const buttonSolid = buttonRecipe.variants?.variant?.solid ?? {};
const buttonRecipeAA = {
  ...buttonRecipe,
  variants: {
    ...buttonRecipe.variants,
    variant: {
      ...buttonRecipe.variants?.variant,
      solid: { ...buttonSolid, _hover: { bg: 'colorPalette.700' }, _expanded: { bg: 'colorPalette.700' } },
    },
  },
} as unknown as typeof buttonRecipe;

/**
 * The colour palettes the app and its recipes use: the brand's (below), gray (Chakra's neutral), and
 * the status palettes of alerts and toasts (info blue, warning orange, success green, error red).
 * Chakra's other palettes (yellow, teal, cyan, purple, pink) are left out (issue 14): each is ~11
 * tokens and ~8 semantic tokens that `createSystem` resolves at start-up and whose CSS variables are
 * inserted on every page, about a third of the system's start-up work and 7 KB of CSS, for colours no
 * page shows. `tests/web/theme-palettes.test.ts` checks that every palette the code names is here.
 */
export const PALETTES = ['gray', 'red', 'orange', 'green', 'blue'] as const;
const NOT_A_PALETTE = new Set(['transparent', 'current', 'black', 'white', 'whiteAlpha', 'blackAlpha', 'bg', 'fg', 'border']);
const usedColors = <T extends Record<string, unknown>>(colors: T): T =>
  Object.fromEntries(Object.entries(colors).filter(([name]) => NOT_A_PALETTE.has(name) || (PALETTES as readonly string[]).includes(name))) as T;

/**
 * Chakra's default theme (tokens, semantic tokens, text and layer styles) with the recipes of the
 * components this app renders only (issue 14: `defaultConfig` ships ~75 recipes, 117 kB, on every
 * page). A component whose recipe is missing renders unstyled, so `npm run size:login` checks after
 * each build that every recipe key the built chunks ask for (`createRecipeContext({ key })`) is here.
 */
const themeConfig = defineConfig({
  preflight: true,
  cssVarsPrefix,
  cssVarsRoot,
  globalCss,
  theme: {
    breakpoints,
    keyframes,
    tokens: { ...tokens, colors: usedColors(tokens.colors ?? {}) },
    semanticTokens: { ...semanticTokens, colors: usedColors(semanticTokens.colors ?? {}) },
    textStyles,
    layerStyles,
    animationStyles,
    recipes: {
      button: buttonRecipeAA,
      checkmark: checkmarkRecipe,
      container: containerRecipe,
      heading: headingRecipe,
      icon: iconRecipe,
      input: inputRecipe,
      inputAddon: inputAddonRecipe,
      link: linkRecipe,
      radiomark: radiomarkRecipe,
      separator: separatorRecipe,
      skipNavLink: skipNavLinkRecipe,
      spinner: spinnerRecipe,
      textarea: textareaRecipe,
    },
    slotRecipes: {
      alert: alertSlotRecipe,
      card: cardSlotRecipe,
      checkbox: checkboxSlotRecipe,
      checkboxCard: checkboxCardSlotRecipe,
      collapsible: collapsibleSlotRecipe,
      combobox: comboboxSlotRecipe,
      dataList: dataListSlotRecipe,
      dialog: dialogSlotRecipe,
      field: fieldSlotRecipe,
      fieldset: fieldsetSlotRecipe,
      list: listSlotRecipe,
      nativeSelect: nativeSelectSlotRecipe,
      numberInput: numberInputSlotRecipe,
      progress: progressSlotRecipe,
      radioCard: radioCardSlotRecipe,
      radioGroup: radioGroupSlotRecipe,
      select: selectSlotRecipe,
      slider: sliderSlotRecipe,
      toast: toastRecipe,
    },
  },
});

/**
 * The app's design system: Chakra's defaults plus a calm, trustworthy deep teal-blue brand
 * palette. `brand.solid` (#1a6285) carries white text at 6.7:1, well above WCAG AA.
 */
const config = defineConfig({
  globalCss: {
    html: { colorPalette: 'brand' },
    body: { bg: 'bg.subtle', color: 'fg' },
  },
  theme: {
    tokens: {
      colors: {
        brand: {
          50: { value: '#eaf4f8' },
          100: { value: '#d0e6f0' },
          200: { value: '#a5cfe1' },
          300: { value: '#71b2cd' },
          400: { value: '#4193b6' },
          500: { value: '#23789d' },
          600: { value: '#1a6285' },
          700: { value: '#154f6c' },
          800: { value: '#113f57' },
          900: { value: '#0d2f41' },
          950: { value: '#081f2c' },
        },
      },
    },
    semanticTokens: {
      colors: {
        // Chakra's default error red (red.500) is 3.8:1 on white: too light for small error text.
        fg: {
          error: { value: { _light: '{colors.red.700}', _dark: '{colors.red.400}' } },
          // Chakra's green.600 is 3.3:1 on white ("Încărcată" was 3.15:1 on its card): green.700 is 6.9:1.
          success: { value: { _light: '{colors.green.700}', _dark: '{colors.green.300}' } },
        },
        brand: {
          solid: { value: '{colors.brand.600}' },
          contrast: { value: '{colors.white}' },
          fg: { value: '{colors.brand.700}' },
          muted: { value: '{colors.brand.100}' },
          subtle: { value: '{colors.brand.50}' },
          emphasized: { value: '{colors.brand.200}' },
          focusRing: { value: '{colors.brand.500}' },
          border: { value: '{colors.brand.500}' },
        },
      },
    },
  },
});

export const system = createSystem(mergeConfigs(defaultBaseConfig, themeConfig), config);

/**
 * Chakra's global CSS as a prerendered page brought it (`<style data-emotion="css-global …">`: the
 * reset, global styles, a CSS variable per token, the cascade layers' order), taken from `from` into
 * <head>, ahead of the page's other styles, where it outlives `from`. When <head> has it, the system is
 * told (`_globalInDocument`): the builds' edit of Chakra (`chakraGlobalFromPage`,
 * scripts/vite-plugin-chakra-system.ts) then neither builds, serializes nor renders it again (issue 14).
 * The guest pages (src/guest/render.tsx) and the step shells (src/shared/shell.ts) both come here.
 * Returns how many styles moved.
 */
export function adoptPrerenderedGlobalCss(from: ParentNode): number {
  const styles = from.querySelectorAll('style[data-emotion^="css-global "]');
  const firstInHead = document.head.querySelector('style[data-emotion]');
  for (const style of styles) document.head.insertBefore(style, firstInHead);
  if (document.head.querySelector('style[data-emotion^="css-global "]')) Object.assign(system, { _globalInDocument: true });
  return styles.length;
}
