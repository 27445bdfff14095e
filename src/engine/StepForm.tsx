import { withTheme, type ThemeProps } from '@rjsf/core';
import FieldTemplate from '@rjsf/chakra-ui/lib/FieldTemplate/FieldTemplate.js';
import ObjectFieldTemplate from '@rjsf/chakra-ui/lib/ObjectFieldTemplate/ObjectFieldTemplate.js';
import WrapIfAdditionalTemplate from '@rjsf/chakra-ui/lib/WrapIfAdditionalTemplate/WrapIfAdditionalTemplate.js';
import { BaseInputTemplate, DescriptionFieldTemplate, FieldErrorTemplate, FieldHelpTemplate, TitleFieldTemplate } from './templates';

/**
 * The step form: rjsf with the part of @rjsf/chakra-ui the flow files use, not the whole theme.
 * The flows render their answers with the widgets and fields of widgets/registry.ts (loaded per
 * step); rjsf itself draws only objects and text inputs (the fiscal code). So the theme keeps
 * Chakra's field, object, help and additional-property templates and the engine's own templates
 * (labels linked to inputs, errors announced), and leaves out Chakra's select, slider,
 * number-input, checkbox and radio widgets (with zag-js and floating-ui: ~120 KB of JavaScript per
 * step that no step draws). A schema type the flows do not use yet falls back to rjsf's plain
 * HTML widget: give it a widget in widgets/registry.ts, or add Chakra's here.
 */
export const stepTheme: ThemeProps = {
  templates: {
    FieldTemplate,
    ObjectFieldTemplate,
    FieldHelpTemplate,
    WrapIfAdditionalTemplate,
    BaseInputTemplate,
    FieldErrorTemplate,
    TitleFieldTemplate,
    DescriptionFieldTemplate,
  },
  widgets: {},
};

export const StepForm = withTheme(stepTheme);
