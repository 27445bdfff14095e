import { useState } from 'react';
import { Button, Collapsible, Fieldset, HStack, RadioGroup, Spinner, Stack, Text } from '@chakra-ui/react';
import type { FieldProps } from '@rjsf/utils';
import { stepContext, type MaritalStatus, type StepLists } from '../types';
import { useOptions } from '../shared/useOptions';
import { FieldErrors } from '../shared/FieldErrors';

interface CivilStatusData {
  is_married?: boolean;
  marital_status_id?: number | null;
}

/** The matrimonial regimes are asked for with the step's request (widgets/types.ts `WidgetModule`). */
export const prefetch = (lists: StepLists) => lists.maritalStatuses();

/**
 * Civil status (spec 001 §2 item 3, §4): "Căsătorit(ă)" or "Necăsătorit(ă)"; when married, the
 * radio list "Căsătorit, dar cum?" of matrimonial regimes with a learn-more explanation. Not
 * married sends marital_status_id null.
 */
export default function CivilStatusField(props: FieldProps<CivilStatusData>) {
  const { formData, onChange, registry, errorSchema, fieldPathId, disabled } = props;
  const { services } = stepContext(registry);
  const { options: regimes, error } = useOptions<MaritalStatus>(() => services.maritalStatuses());
  const [learnMore, setLearnMore] = useState(false);
  const data = formData ?? {};
  const set = (next: CivilStatusData) => onChange(next, fieldPathId.path);
  const regimeErrors = errorSchema?.marital_status_id?.__errors;
  const marriedErrors = errorSchema?.is_married?.__errors;

  return (
    <Stack gap="5">
      <HStack gap="3" role="group" aria-label={services.t('steps:civilStatus.title')} wrap="wrap">
        {([true, false] as const).map((married) => (
          <Button
            key={String(married)}
            size="lg"
            flex="1"
            minW="40"
            variant={data.is_married === married ? 'solid' : 'outline'}
            colorPalette="blue"
            aria-pressed={data.is_married === married}
            disabled={disabled}
            onClick={() => set(married ? { is_married: true, marital_status_id: data.marital_status_id ?? null } : { is_married: false, marital_status_id: null })}
          >
            {services.t(married ? 'steps:civilStatus.married' : 'steps:civilStatus.notMarried')}
          </Button>
        ))}
      </HStack>
      <FieldErrors id={`${fieldPathId.$id}__married_error`} errors={marriedErrors} />

      {data.is_married ? (
        error ? (
          <Text color="fg.error">{services.t('steps:common.loadError')}</Text>
        ) : !regimes ? (
          <Spinner aria-label={services.t('steps:common.loading')} />
        ) : (
          <Fieldset.Root invalid={Boolean(regimeErrors?.length)}>
            <Fieldset.Legend fontWeight="semibold">{services.t('steps:civilStatus.regimeLabel')}</Fieldset.Legend>
            <RadioGroup.Root
              value={data.marital_status_id ? String(data.marital_status_id) : null}
              onValueChange={(e) => set({ is_married: true, marital_status_id: e.value ? Number(e.value) : null })}
              name={`${fieldPathId.$id}_regime`}
              disabled={disabled}
            >
              <Stack gap="3" mt="2">
                {regimes.map((regime) => (
                  <RadioGroup.Item key={regime.id} value={String(regime.id)}>
                    <RadioGroup.ItemHiddenInput />
                    <RadioGroup.ItemIndicator />
                    <RadioGroup.ItemText>{regime.display_name}</RadioGroup.ItemText>
                  </RadioGroup.Item>
                ))}
              </Stack>
            </RadioGroup.Root>
            <FieldErrors id={`${fieldPathId.$id}__regime_error`} errors={regimeErrors} />
            <Collapsible.Root open={learnMore} onOpenChange={(e) => setLearnMore(e.open)}>
              <Collapsible.Trigger asChild>
                <Button variant="plain" colorPalette="blue" px="0">
                  {services.t('steps:civilStatus.learnMore')}
                </Button>
              </Collapsible.Trigger>
              <Collapsible.Content>
                <Stack gap="2" fontSize="sm">
                  {regimes.map((regime) => (
                    <Text key={regime.id}>
                      <strong>{regime.display_name}:</strong> {regime.display_description}
                    </Text>
                  ))}
                </Stack>
              </Collapsible.Content>
            </Collapsible.Root>
          </Fieldset.Root>
        )
      ) : null}
    </Stack>
  );
}
