import { useEffect, useId, useState } from 'react';
import { Box, Heading, HStack, IconButton, Text, chakra } from '@chakra-ui/react';
import { useMediaQuery } from '../../../widgets/shared/useMediaQuery';
import { useT } from '@/shared/useT';
import { PauseIcon, PlayIcon } from '@/shared/components/icons';

/** Login banner slider (spec 000 §9): rewinds, width 800, no arrows, speed 400 ms, autoplay 5000 ms. */
export const SLIDER_AUTOPLAY_MS = 5000;
export const SLIDER_SPEED_MS = 400;
export const SLIDER_MAX_WIDTH = 800;
const SLIDE_KEYS = ['s1', 's2', 's3'] as const;

/**
 * Three slides about the product. Autoplay pauses while hovered or focused, can be paused with a
 * button (WCAG 2.2.2) and is off when the user prefers reduced motion; after the last slide it
 * rewinds to the first. Hidden on narrow screens.
 */
export function BannerSlider() {
  const t = useT('auth');
  const id = useId();
  // `false` in the HTML prerendered at build time, then the browser's.
  const reducedMotion = useMediaQuery('(prefers-reduced-motion: reduce)', false);
  const [index, setIndex] = useState(0);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [stopped, setStopped] = useState(false);
  const count = SLIDE_KEYS.length;
  const playing = !reducedMotion && !stopped;
  const running = playing && !hovered && !focused;

  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setIndex((i) => (i + 1) % count), SLIDER_AUTOPLAY_MS);
    return () => clearInterval(timer);
  }, [running, count]);

  return (
    <Box
      as="section"
      aria-roledescription={t('banner.roledescription')}
      aria-label={t('banner.label')}
      maxW={`${SLIDER_MAX_WIDTH}px`}
      w="full"
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(event: React.FocusEvent<HTMLElement>) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
      }}
    >
      <Box overflow="hidden" borderRadius="l3">
        <HStack
          id={`${id}-slides`}
          gap="0"
          align="stretch"
          aria-live={running ? 'off' : 'polite'}
          transform={`translateX(-${index * 100}%)`}
          transition={reducedMotion ? 'none' : `transform ${SLIDER_SPEED_MS}ms ease-in-out`}
        >
          {SLIDE_KEYS.map((key, i) => (
            <Box
              key={key}
              role="group"
              aria-roledescription={t('banner.slideRoledescription')}
              aria-label={t('banner.slidePosition', { position: i + 1, total: count })}
              aria-hidden={i !== index}
              inert={i !== index}
              flex="0 0 100%"
              minW="0"
              bg="brand.700"
              color="white"
              px="10"
              py="12"
              minH="xs"
              display="flex"
              flexDirection="column"
              justifyContent="center"
              gap="4"
            >
              <Heading as="h2" size="2xl" lineHeight="short">
                {t(`banner.slides.${key}.title`)}
              </Heading>
              <Text fontSize="lg" color="brand.50">
                {t(`banner.slides.${key}.text`)}
              </Text>
            </Box>
          ))}
        </HStack>
      </Box>
      <HStack justify="center" gap="3" mt="4">
        {!reducedMotion && (
          <IconButton
            type="button"
            size="xs"
            variant="ghost"
            aria-label={stopped ? t('banner.play') : t('banner.pause')}
            onClick={() => setStopped((s) => !s)}
          >
            {stopped ? <PlayIcon /> : <PauseIcon />}
          </IconButton>
        )}
        <HStack as="ul" listStyleType="none" gap="1" m="0" p="0">
          {SLIDE_KEYS.map((key, i) => (
            <li key={key}>
              <chakra.button
                type="button"
                aria-controls={`${id}-slides`}
                aria-label={t('banner.goTo', { position: i + 1 })}
                aria-current={i === index ? 'true' : undefined}
                onClick={() => setIndex(i)}
                display="flex"
                alignItems="center"
                justifyContent="center"
                minW="6"
                minH="6"
                borderRadius="full"
                cursor="pointer"
                _focusVisible={{ outline: '2px solid', outlineColor: 'brand.focusRing', outlineOffset: '2px' }}
              >
                <Box as="span" w="2.5" h="2.5" borderRadius="full" bg={i === index ? 'brand.600' : 'gray.500'} />
              </chakra.button>
            </li>
          ))}
        </HStack>
      </HStack>
    </Box>
  );
}
