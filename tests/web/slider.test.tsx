import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { SWRConfig } from 'swr';
import { ChakraProvider } from '@chakra-ui/react';
import { I18nextProvider } from 'react-i18next';
import { createI18n } from '@/shared/i18n';
import { system } from '@/shared/theme';
import { BannerSlider, SLIDER_AUTOPLAY_MS } from '@/pages/login/BannerSlider';
import { mockApi } from './helpers';

function renderSlider() {
  return render(
    <ChakraProvider value={system}>
      <I18nextProvider i18n={createI18n()}>
        <SWRConfig value={{ provider: () => new Map() }}>
          <BannerSlider />
        </SWRConfig>
      </I18nextProvider>
    </ChakraProvider>,
  );
}

const active = () => screen.getAllByRole('group', { hidden: true }).findIndex((g) => g.getAttribute('aria-hidden') !== 'true');
const tick = () => act(() => vi.advanceTimersByTime(SLIDER_AUTOPLAY_MS));

describe('login banner slider', () => {
  const originalMatchMedia = window.matchMedia;
  beforeEach(() => {
    mockApi();
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    window.matchMedia = originalMatchMedia;
  });

  it('autoplays every 5 s and rewinds to the first slide after the last', () => {
    renderSlider();
    expect(active()).toBe(0);
    tick();
    expect(active()).toBe(1);
    tick();
    expect(active()).toBe(2);
    tick();
    expect(active()).toBe(0);
    expect(screen.getAllByRole('group', { hidden: true })[0].getAttribute('aria-label')).toBe('1 din 3');
  });

  it('pauses while hovered or focused, and with the pause button', () => {
    const { container } = renderSlider();
    const region = container.querySelector('section')!;
    fireEvent.mouseEnter(region);
    tick();
    expect(active()).toBe(0);
    fireEvent.mouseLeave(region);
    tick();
    expect(active()).toBe(1);

    const dot = screen.getByRole('button', { name: 'Arată diapozitivul 3' });
    act(() => dot.focus());
    act(() => dot.click());
    expect(active()).toBe(2);
    expect(dot.getAttribute('aria-current')).toBe('true');
    tick();
    expect(active()).toBe(2);
    act(() => dot.blur());

    fireEvent.click(screen.getByRole('button', { name: 'Oprește derularea' }));
    tick();
    expect(active()).toBe(2);
    fireEvent.click(screen.getByRole('button', { name: 'Pornește derularea' }));
    tick();
    expect(active()).toBe(0);
  });

  it('does not autoplay when the user prefers reduced motion', () => {
    window.matchMedia = ((query: string) => ({
      matches: query.includes('prefers-reduced-motion'),
      media: query,
      onchange: null,
      addListener() {},
      removeListener() {},
      addEventListener() {},
      removeEventListener() {},
      dispatchEvent: () => false,
    })) as typeof window.matchMedia;
    renderSlider();
    tick();
    tick();
    expect(active()).toBe(0);
    expect(screen.queryByRole('button', { name: 'Oprește derularea' })).toBeNull();
  });
});
