import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import Form from '@rjsf/chakra-ui';
import type { RJSFSchema } from '@rjsf/utils';
import { BaseInputTemplate, FieldErrorTemplate } from '@/engine/templates';
import { toErrorSchema, translateUiSchema } from '@/engine/translate-ui';
import { stepValidator } from '@/engine/validators';
import { t } from './render';

afterEach(cleanup);

describe('engine templates', () => {
  it('link every label to its input and announce the server error under it', async () => {
    const schema: RJSFSchema = { type: 'object', properties: { fiscal_code: { type: 'string', title: t('steps:fiscalCode.label') } } };
    render(
      <ChakraProvider value={defaultSystem}>
        <Form
          schema={schema}
          validator={await stepValidator('fiscal-code.json')}
          templates={{ BaseInputTemplate, FieldErrorTemplate }}
          extraErrors={toErrorSchema({ fiscal_code: ['Cifra de control a CUI-ului nu este corectă.'] }) as never}
          showErrorList={false}
          noHtml5Validate
        />
      </ChakraProvider>,
    );
    const input = await screen.findByLabelText(t('steps:fiscalCode.label'));
    expect(input.tagName).toBe('INPUT');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Cifra de control a CUI-ului nu este corectă.');
    expect(input.getAttribute('aria-describedby')).toContain(alert.id);
  });

  it('translate the locale keys of a uiSchema and nest dotted error keys', () => {
    expect(translateUiSchema({ a: { 'ui:title': 'k:x', other: 'k:y' }, b: { 'ui:help': 'k:h' } }, (k) => `T(${k})`)).toEqual({
      a: { 'ui:title': 'T(k:x)', other: 'k:y' },
      b: { 'ui:help': 'T(k:h)' },
    });
    expect(toErrorSchema({ 'files.0': ['Formatul nu este acceptat.', 'b'], email: ['x'] })).toEqual({
      files: { 0: { __errors: ['Formatul nu este acceptat.'] } },
      email: { __errors: ['x'] },
    });
  });

  it('precompiled validators judge the step schemas without compiling anything at run time', async () => {
    const validator = await stepValidator('civil-status.json');
    const schema = (await import('../../schemas/civil-status.json')).default as RJSFSchema;
    expect(validator.isValid(schema, { is_married: false, marital_status_id: null }, schema)).toBe(true);
    expect(validator.isValid(schema, { is_married: true }, schema)).toBe(false);
    expect(validator.isValid(schema, { is_married: true, marital_status_id: 2 }, schema)).toBe(true);
  });
});
