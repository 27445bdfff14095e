import { useEffect, useRef } from 'react';
import { CheckboxCard, Fieldset, Spinner, Stack, Text } from '@chakra-ui/react';
import type { WidgetProps } from '@rjsf/utils';
import { stepContext, type LostReason, type StepLists } from '../types';
import { useOptions } from '../shared/useOptions';
import { FieldErrors } from '../shared/FieldErrors';

/** The lost reasons are asked for with the step's request (widgets/types.ts `WidgetModule`). */
export const prefetch = (lists: StepLists) => lists.lostReasons();

/**
 * The exclusion questionnaire (spec 001 §2 item 10, §4): one card per lost reason with its main
 * text and subtext. Ticking the `exclusive` option ("niciuna") unticks the rest; ticking any other
 * unticks it. Options come from the lost-reasons nomenclature.
 */
export default function QuestionnaireWidget(props: WidgetProps) {
  const { id, value, onChange, options, registry, rawErrors, disabled } = props;
  const { services, stepId } = stepContext(registry);
  const exclusive = options.exclusive as string | undefined;
  const { options: reasons, error } = useOptions<LostReason>(() => services.lostReasons());
  const selected: string[] = Array.isArray(value) ? (value as unknown[]).filter((v): v is string => typeof v === 'string') : [];
  // Two clicks can arrive before the form re-renders: toggle from the latest value, not the rendered one.
  const latest = useRef(selected);
  useEffect(() => {
    latest.current = selected;
  });

  function toggle(identifier: string, checked: boolean) {
    const current = latest.current;
    let next: string[];
    if (!checked) next = current.filter((r) => r !== identifier);
    else if (identifier === exclusive) next = [exclusive];
    else next = [...current.filter((r) => r !== exclusive && r !== identifier), identifier];
    // Keep the order of the list: the first ticked reason is the one a lost request keeps.
    const order = (reasons ?? []).map((r) => r.identifier);
    next.sort((a, b) => order.indexOf(a) - order.indexOf(b));
    latest.current = next;
    onChange(next);
  }

  if (error) return <Text color="fg.error">{services.t('steps:common.loadError')}</Text>;
  if (!reasons) return <Spinner aria-label={services.t('steps:common.loading')} />;
  const errorId = `${id}__error`;
  return (
    <Fieldset.Root
      invalid={Boolean(rawErrors?.length)}
      aria-labelledby={`${stepId}-title`}
      aria-describedby={rawErrors?.length ? errorId : undefined}
    >
      <Stack gap="3">
        {reasons.map((reason) => (
          <CheckboxCard.Root
            key={reason.identifier}
            checked={selected.includes(reason.identifier)}
            onCheckedChange={(e) => toggle(reason.identifier, Boolean(e.checked))}
            disabled={disabled}
            value={reason.identifier}
          >
            <CheckboxCard.HiddenInput name={`${id}-${reason.identifier}`} />
            <CheckboxCard.Control>
              <CheckboxCard.Content>
                <CheckboxCard.Label>{reason.fe_text}</CheckboxCard.Label>
                {reason.fe_subtext ? <CheckboxCard.Description>{reason.fe_subtext}</CheckboxCard.Description> : null}
              </CheckboxCard.Content>
              <CheckboxCard.Indicator />
            </CheckboxCard.Control>
          </CheckboxCard.Root>
        ))}
      </Stack>
      <FieldErrors id={errorId} errors={rawErrors} />
    </Fieldset.Root>
  );
}
