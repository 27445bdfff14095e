import { useEffect, useId, useState } from 'react';
import { Alert, Box, Button, Collapsible, Field, Input, RadioCard, SimpleGrid, Spinner, Stack, Text } from '@chakra-ui/react';
import type { FieldProps } from '@rjsf/utils';
import { stepContext, type Activity, type StepLists } from '../types';
import { useOptions } from '../shared/useOptions';
import { FieldErrors } from '../shared/FieldErrors';


interface ActivitiesData {
  activity_id?: number;
  activity_details?: string | null;
}

/** The activities are asked for with the step's request (widgets/types.ts `WidgetModule`). */
export const prefetch = (lists: StepLists) => lists.activities();

/**
 * Activities (spec 001 §2 item 1): the primary activities in a grid, the others behind
 * "Afișează mai multe activități", and "Nu găsesc activitatea" with a free-text description.
 * `ui:options`: `primaryCount`, `notices` (activity code -> locale key shown when chosen),
 * `preselect` (activity code chosen when the step opens empty).
 */
export default function ActivitiesField(props: FieldProps<ActivitiesData>) {
  const { formData, onChange, registry, uiSchema, errorSchema, fieldPathId, disabled } = props;
  const { services } = stepContext(registry);
  const options = (uiSchema?.['ui:options'] ?? {}) as { primaryCount?: number; notices?: Record<string, string>; preselect?: string; unknownActivity?: string };
  // The "I don't know yet" activity (its code from the flow): shown apart, with a description field.
  const UNKNOWN = options.unknownActivity;
  const { options: activities, error } = useOptions<Activity>(() => services.activities());
  const data = formData ?? {};
  const selected = activities?.find((a) => a.id === data.activity_id) ?? null;
  const [showMoreChoice, setShowMore] = useState<boolean | null>(null);
  const detailsId = useId();

  const set = (next: ActivitiesData) => onChange(next, fieldPathId.path);

  useEffect(() => {
    if (!activities || data.activity_id || !options.preselect) return;
    const preselected = activities.find((a) => a.code === options.preselect);
    if (preselected) set({ activity_id: preselected.id, activity_details: null });
    // Only when the list arrives.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [activities]);

  if (error) return <Text color="fg.error">{services.t('steps:common.loadError')}</Text>;
  if (!activities) return <Spinner aria-label={services.t('steps:common.loading')} />;

  // The longer list opens by itself when the chosen activity is in it.
  const showMore = showMoreChoice ?? Boolean(selected && !selected.is_primary && selected.code !== UNKNOWN);
  const primaryCount = options.primaryCount ?? 6;
  const listed = activities.filter((a) => a.code !== UNKNOWN);
  const primary = listed.filter((a) => a.is_primary).slice(0, primaryCount);
  const more = listed.filter((a) => !primary.includes(a));
  const unknown = activities.find((a) => a.code === UNKNOWN);
  const notice = selected ? options.notices?.[selected.code] : undefined;
  const activityErrors = errorSchema?.activity_id?.__errors;
  const detailsErrors = errorSchema?.activity_details?.__errors;

  const choose = (value: string | null) => {
    const activity = activities.find((a) => String(a.id) === value);
    if (activity) set({ activity_id: activity.id, activity_details: activity.code === UNKNOWN ? (data.activity_details ?? '') : null });
  };

  const card = (a: Activity) => (
    <RadioCard.Item key={a.id} value={String(a.id)}>
      <RadioCard.ItemHiddenInput />
      <RadioCard.ItemControl>
        <RadioCard.ItemText>{a.name}</RadioCard.ItemText>
        <RadioCard.ItemIndicator />
      </RadioCard.ItemControl>
    </RadioCard.Item>
  );

  return (
    <Stack gap="4">
      <RadioCard.Root
        value={data.activity_id ? String(data.activity_id) : null}
        onValueChange={(e) => choose(e.value)}
        disabled={disabled}
        name={fieldPathId.$id}
        aria-label={services.t('steps:activities.title')}
      >
        <SimpleGrid columns={{ base: 1, sm: 2, md: 3 }} gap="3">
          {primary.map(card)}
        </SimpleGrid>
        <Collapsible.Root open={showMore} onOpenChange={(e) => setShowMore(e.open)}>
          <Collapsible.Trigger asChild>
            <Button variant="plain" colorPalette="blue" px="0" mt="3">
              {services.t(showMore ? 'steps:activities.less' : 'steps:activities.more')}
            </Button>
          </Collapsible.Trigger>
          <Collapsible.Content>
            <SimpleGrid columns={{ base: 1, sm: 2, md: 3 }} gap="3" mt="2">
              {more.map(card)}
            </SimpleGrid>
          </Collapsible.Content>
        </Collapsible.Root>
        {unknown ? (
          <Box mt="3">
            <RadioCard.Item value={String(unknown.id)}>
              <RadioCard.ItemHiddenInput />
              <RadioCard.ItemControl>
                <RadioCard.ItemText>{services.t('steps:activities.notFound')}</RadioCard.ItemText>
                <RadioCard.ItemIndicator />
              </RadioCard.ItemControl>
            </RadioCard.Item>
          </Box>
        ) : null}
      </RadioCard.Root>
      <FieldErrors id={`${fieldPathId.$id}__error`} errors={activityErrors} />

      {selected?.code === UNKNOWN ? (
        <Field.Root required invalid={Boolean(detailsErrors?.length)}>
          <Field.Label htmlFor={detailsId}>{services.t('steps:activities.detailsLabel')}</Field.Label>
          <Input
            id={detailsId}
            value={data.activity_details ?? ''}
            placeholder={services.t('steps:activities.detailsPlaceholder')}
            maxLength={500}
            onChange={(e) => set({ activity_id: data.activity_id, activity_details: e.target.value })}
          />
          <Field.ErrorText>{detailsErrors?.[0]}</Field.ErrorText>
        </Field.Root>
      ) : null}

      {notice ? (
        <Alert.Root status="warning" role="status">
          <Alert.Indicator />
          <Alert.Description>{services.t(notice)}</Alert.Description>
        </Alert.Root>
      ) : null}
    </Stack>
  );
}
