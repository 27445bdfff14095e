import { RadioCard, SimpleGrid } from '@chakra-ui/react';
import type { WidgetProps } from '@rjsf/utils';
import { stepContext } from '../types';
import { FieldErrors } from '../shared/FieldErrors';

/**
 * Card interest (spec 001 §2 item 7): "Da, m-ar interesa" (1) or "Nu, mulțumesc" (0), under the
 * offer, which is the step's copy `intro` in the flow file (the engine shows it under the heading,
 * prerendered in the step's shell). The answer can change until the form is sent.
 */
export default function CardChoiceWidget(props: WidgetProps) {
  const { id, value, onChange, registry, rawErrors, disabled } = props;
  const { services } = stepContext(registry);
  const errorId = `${id}__error`;
  return (
    <>
      <RadioCard.Root
        value={value === 1 || value === 0 ? String(value) : null}
        onValueChange={(e) => onChange(e.value === null ? undefined : Number(e.value))}
        disabled={disabled}
        name={id}
        aria-label={services.t('steps:card.title')}
        aria-describedby={rawErrors?.length ? errorId : undefined}
      >
        <SimpleGrid columns={{ base: 1, sm: 2 }} gap="3">
          {[
            ['1', 'steps:card.yes'],
            ['0', 'steps:card.no'],
          ].map(([answer, key]) => (
            <RadioCard.Item key={answer} value={answer}>
              <RadioCard.ItemHiddenInput />
              <RadioCard.ItemControl>
                <RadioCard.ItemText>{services.t(key)}</RadioCard.ItemText>
                <RadioCard.ItemIndicator />
              </RadioCard.ItemControl>
            </RadioCard.Item>
          ))}
        </SimpleGrid>
      </RadioCard.Root>
      <FieldErrors id={errorId} errors={rawErrors} />
    </>
  );
}
