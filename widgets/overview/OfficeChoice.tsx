import { lazy, Suspense, useEffect, useState } from 'react';
import { Fieldset, Heading, RadioGroup, Stack, Text } from '@chakra-ui/react';
import type { StepServices } from '../types';
import { afterPaint } from '../shared/afterPaint';
import { FieldErrors } from '../shared/FieldErrors';
import type { AddressType } from './overview-rules';
import type { HomeOffice } from './useHomeOffice';

/**
 * The popup is its own chunk (issue 14: Zag's dialog, focus trap and scroll lock, ~7 KiB brotli): the
 * step is drawn without it, and it is asked for once the step is on screen, before anyone picks home.
 */
const loadOfficeDialog = () => import('./OfficeDialog');
const OfficeDialog = lazy(loadOfficeDialog);

export interface OfficeChoiceProps {
  value: AddressType | undefined;
  office: HomeOffice;
  errors?: string[];
  errorId: string;
  name: string;
  editable: boolean;
  t: StepServices['t'];
}

/** "Sediul social": at the product or at home; home opens the popup that explains the rule (spec 001 §4). */
export function OfficeChoice({ value, office, errors, errorId, name, editable, t }: OfficeChoiceProps) {
  // Mounted from the first opening on: closing animates, and the focus goes back to the choice.
  const [dialogMounted, setDialogMounted] = useState(false);
  if (office.dialogOpen && !dialogMounted) setDialogMounted(true);
  useEffect(() => {
    if (editable) void afterPaint().then(loadOfficeDialog).catch(() => undefined);
  }, [editable]);
  return (
    <>
      <Fieldset.Root invalid={Boolean(errors?.length)} disabled={!editable}>
        <Fieldset.Legend>
          <Heading as="h2" size="md">
            {t('steps:overview.officeTitle')}
          </Heading>
        </Fieldset.Legend>
        <RadioGroup.Root
          value={value ? String(value) : null}
          onValueChange={(e) => e.value && office.choose(Number(e.value) as AddressType)}
          name={name}
          aria-describedby={errors?.length ? errorId : undefined}
          disabled={!editable}
        >
          <Stack gap="3" mt="2">
            <RadioGroup.Item value="1" alignItems="flex-start">
              <RadioGroup.ItemHiddenInput />
              <RadioGroup.ItemIndicator />
              <RadioGroup.ItemText>
                <Text as="span" display="block">
                  {t('steps:overview.officeProduct')}
                </Text>
                <Text as="span" display="block" color="fg.muted" fontSize="sm">
                  {t('steps:overview.officeProductHint')}
                </Text>
              </RadioGroup.ItemText>
            </RadioGroup.Item>
            <RadioGroup.Item value="2" alignItems="flex-start">
              <RadioGroup.ItemHiddenInput />
              <RadioGroup.ItemIndicator />
              <RadioGroup.ItemText>{t('steps:overview.officeHome')}</RadioGroup.ItemText>
            </RadioGroup.Item>
          </Stack>
        </RadioGroup.Root>
        <FieldErrors id={errorId} errors={errors} />
      </Fieldset.Root>

      {dialogMounted ? (
        <Suspense fallback={null}>
          <OfficeDialog office={office} t={t} />
        </Suspense>
      ) : null}
    </>
  );
}
