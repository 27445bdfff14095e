import { Button, Dialog, Fieldset, Heading, Portal, RadioGroup, Stack, Text } from '@chakra-ui/react';
import type { StepServices } from '../types';
import { FieldErrors } from '../shared/FieldErrors';
import type { AddressType } from './overview-rules';
import type { HomeOffice } from './useHomeOffice';

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

      <Dialog.Root open={office.dialogOpen} onOpenChange={(e) => !e.open && !office.leaving && office.keep()} role="alertdialog" placement="center">
        <Portal>
          <Dialog.Backdrop />
          <Dialog.Positioner>
            <Dialog.Content>
              <Dialog.Header>
                <Dialog.Title>{t('steps:overview.homeDialogTitle')}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="3">
                  <Text>{t('steps:overview.homeDialogText')}</Text>
                  <Text>{t('steps:overview.homeDialogLeaveText')}</Text>
                  {office.leaveError ? (
                    <Text role="alert" color="fg.error">
                      {office.leaveError}
                    </Text>
                  ) : null}
                </Stack>
              </Dialog.Body>
              <Dialog.Footer flexWrap="wrap" gap="2">
                <Button colorPalette="blue" onClick={office.keep} disabled={office.leaving}>
                  {t('steps:overview.keepOffice')}
                </Button>
                <Button variant="outline" onClick={() => void office.leave()} loading={office.leaving}>
                  {t('steps:overview.leave')}
                </Button>
              </Dialog.Footer>
            </Dialog.Content>
          </Dialog.Positioner>
        </Portal>
      </Dialog.Root>
    </>
  );
}
