import { useEffect } from 'react';
import { Box, Card, HStack, List, RadioCard, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import type { WidgetProps } from '@rjsf/utils';
import { stepContext, type PartnerPriceOffer } from '../types';
import { FieldErrors } from '../shared/FieldErrors';

const amountFormat = new Intl.NumberFormat('ro-RO', { minimumFractionDigits: 0, maximumFractionDigits: 2 });

/** "119 lei/lună" (or "119 lei" for a one-time payment). */
function priceLabel(price: PartnerPriceOffer, t: (key: string, options?: Record<string, unknown>) => string): string {
  const amount = amountFormat.format(price.amount);
  if (price.interval === 'month') return t('steps:pricing.perMonth', { amount });
  if (price.interval === 'year') return t('steps:pricing.perYear', { amount });
  return t('steps:pricing.once', { amount });
}

function CheckIcon() {
  return (
    <svg viewBox="0 0 20 20" width="20" height="20" aria-hidden="true" focusable="false">
      <path fill="currentColor" d="M7.6 13.6 4 10l-1.4 1.4 5 5 10-10L16.2 5z" />
    </svg>
  );
}

/**
 * Pricing (spec 001 §2 item 8): the partner's description, its price(s), the four features of the
 * subscription (`ui:options.features`: locale keys) and the partner's footnote. The value is the
 * chosen price's payment-provider id (`selected_stripe_id`); a single price is chosen already. The
 * step's button ("Vreau {product}") and the payment redirect are the engine's (`submit.then`).
 */
export default function PricePlansWidget(props: WidgetProps) {
  const { id, value, onChange, registry, rawErrors, disabled, options } = props;
  const { services, partner } = stepContext(registry);
  const { t } = services;
  const prices = partner.prices;
  const features = (options.features as string[] | undefined) ?? [];
  const errorId = `${id}__error`;
  const single = prices.length === 1 ? prices[0] : null;
  const product = t('steps:pricing.product');
  const description = partner.description?.replaceAll('{{product}}', product) ?? null;

  // One price: it is the choice (the button is all that is left to press).
  useEffect(() => {
    if (single && value !== single.stripe_id) onChange(single.stripe_id);
  }, [single, value, onChange]);

  return (
    <Stack gap="5">
      {description ? <Text>{description}</Text> : null}
      {single ? (
        <Card.Root variant="outline" aria-label={t('steps:pricing.planLabel')}>
          <Card.Body>
            <Text fontSize="3xl" fontWeight="bold" data-testid="price-amount">
              {priceLabel(single, t)}
            </Text>
            <Text color="fg.muted">{single.description}</Text>
          </Card.Body>
        </Card.Root>
      ) : (
        <RadioCard.Root
          value={typeof value === 'string' ? value : null}
          onValueChange={(e) => onChange(e.value ?? undefined)}
          disabled={disabled}
          name={id}
          aria-label={t('steps:pricing.planLabel')}
          aria-describedby={rawErrors?.length ? errorId : undefined}
        >
          <SimpleGrid columns={{ base: 1, md: Math.min(prices.length, 3) }} gap="3">
            {prices.map((price) => (
              <RadioCard.Item key={price.stripe_id} value={price.stripe_id}>
                <RadioCard.ItemHiddenInput />
                <RadioCard.ItemControl>
                  <RadioCard.ItemContent>
                    <RadioCard.ItemText fontSize="xl" fontWeight="bold">
                      {priceLabel(price, t)}
                    </RadioCard.ItemText>
                    <RadioCard.ItemDescription>{price.description}</RadioCard.ItemDescription>
                  </RadioCard.ItemContent>
                  <RadioCard.ItemIndicator />
                </RadioCard.ItemControl>
              </RadioCard.Item>
            ))}
          </SimpleGrid>
        </RadioCard.Root>
      )}
      {features.length ? (
        <Box>
          <Text fontWeight="semibold" mb="2" id={`${id}-features`}>
            {t('steps:pricing.featuresTitle')}
          </Text>
          <List.Root variant="plain" gap="2" aria-labelledby={`${id}-features`}>
            {features.map((key) => (
              <List.Item key={key}>
                <HStack align="start" gap="2">
                  <Box color="green.600" flexShrink={0}>
                    <CheckIcon />
                  </Box>
                  <Text>{t(key)}</Text>
                </HStack>
              </List.Item>
            ))}
          </List.Root>
        </Box>
      ) : null}
      {partner.footnote ? (
        <Text fontSize="sm" color="fg.muted" data-testid="price-footnote">
          * {partner.footnote}
        </Text>
      ) : null}
      <FieldErrors id={errorId} errors={rawErrors} />
    </Stack>
  );
}
