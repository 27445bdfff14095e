import { Field, Input, Text } from '@chakra-ui/react';
import { RichDescription, RichHelp } from '@rjsf/core';
import ChakraTitle from '@rjsf/chakra-ui/lib/TitleField/TitleField.js';
import {
  ariaDescribedByIds,
  descriptionId,
  errorId,
  getInputProps,
  helpId,
  labelValue,
  titleId,
  type BaseInputTemplateProps,
  type DescriptionFieldProps,
  type FieldHelpProps,
  type FieldErrorProps,
  type TitleFieldProps,
} from '@rjsf/utils';
import { widgets as customWidgets } from '../../widgets/registry';

/**
 * A step schema's own title and description document it for developers (and flows:check);
 * the step's heading and intro come from the locale files, so the form's root skips them.
 */
export function TitleFieldTemplate(props: TitleFieldProps) {
  if (props.id === titleId(props.registry.globalFormOptions.idPrefix)) return null;
  return <ChakraTitle {...props} />;
}

/**
 * A field's description and help as text blocks. @rjsf/chakra-ui draws both as `<sup>`, whose line
 * height the CSS reset sets to 0: a help that wraps drew its lines on top of each other (the fiscal
 * code step's help at 360 px, and in the staff preview's column).
 */
export function DescriptionFieldTemplate({ description, id, registry, uiSchema }: DescriptionFieldProps) {
  if (id === descriptionId(registry.globalFormOptions.idPrefix) || !description) return null;
  return (
    <Text as="div" fontSize="md" id={id}>
      <RichDescription description={description} registry={registry} uiSchema={uiSchema} />
    </Text>
  );
}

export function FieldHelpTemplate({ fieldPathId, help, registry, uiSchema }: FieldHelpProps) {
  if (!help) return null;
  return (
    <Text as="div" fontSize="md" id={helpId(fieldPathId)}>
      <RichHelp help={help} registry={registry} uiSchema={uiSchema} />
    </Text>
  );
}

/**
 * @rjsf/chakra-ui's input template lets Chakra generate the label's `for` while rjsf sets the
 * input's id, so labels are not linked to inputs. This one gives Field rjsf's id: a real
 * <label for> that screen readers and getByLabelText follow.
 */
export function BaseInputTemplate(props: BaseInputTemplateProps) {
  const { id, htmlName, type, value, label, hideLabel, schema, onChange, onChangeOverride, onBlur, onFocus, options, required, readonly, rawErrors, autofocus, placeholder, disabled } = props;
  const inputProps = getInputProps(schema, type, options);
  const invalid = Boolean(rawErrors?.length);
  return (
    <Field.Root id={id} required={required} disabled={disabled || readonly} invalid={invalid} mb="1">
      {labelValue(label, hideLabel || !label) ? (
        <Field.Label>
          {label}
          <Field.RequiredIndicator />
        </Field.Label>
      ) : null}
      <Input
        id={id}
        name={htmlName || id}
        value={value || value === 0 ? value : ''}
        onChange={onChangeOverride || ((e) => onChange(e.target.value === '' ? options.emptyValue : e.target.value))}
        onBlur={(e) => onBlur(id, e.target.value)}
        onFocus={(e) => onFocus(id, e.target.value)}
        autoFocus={autofocus}
        placeholder={placeholder}
        readOnly={readonly}
        {...inputProps}
        aria-invalid={invalid || undefined}
        aria-describedby={ariaDescribedByIds(id)}
      />
    </Field.Root>
  );
}

/**
 * The first error of a field, with the id inputs point to in aria-describedby. A custom widget of
 * widgets/registry.ts shows its own `rawErrors` where it fits its layout, so it is not repeated here.
 */
export function FieldErrorTemplate({ errors, fieldPathId, uiSchema }: FieldErrorProps) {
  const widget = uiSchema?.['ui:widget'];
  if (typeof widget === 'string' && Object.hasOwn(customWidgets, widget)) return null;
  const messages = (errors ?? []).filter((e): e is string => typeof e === 'string');
  if (!messages.length) return null;
  return (
    <Text id={errorId(fieldPathId)} role="alert" color="fg.error" fontSize="sm" mt="1">
      {messages[0]}
    </Text>
  );
}
