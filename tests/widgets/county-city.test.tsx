import { describe, expect, it, vi } from 'vitest';

import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { CityPicker, CountyPicker } from '../../widgets/county-city';
import type { PlacesService } from '../../widgets/types';
import { t } from '../engine/render';
import { textPattern } from '../copy';
import { choose, CITIES, openAndFind, renderUi, scrollToEnd, sleep, spyPlaces } from './helpers';

/** A county and a city picker sharing state, as the address forms use them. */
function Pickers({ places, initial = {} }: { places: PlacesService; initial?: { county?: number; countyName?: string; city?: number; cityName?: string } }) {
  const [county, setCounty] = useState({ id: initial.county ?? null, name: initial.countyName ?? '' });
  const [city, setCity] = useState({ id: initial.city ?? null, name: initial.cityName ?? '' });
  return (
    <>
      <CountyPicker label={t('steps:address.county')} value={county.id} valueName={county.name} onChange={(id, name) => setCounty({ id, name })} places={places} t={t} required />
      <CityPicker
        label={t('steps:address.city')}
        countyId={county.id}
        value={city.id}
        valueName={city.name}
        onChange={(id, name) => setCity({ id, name })}
        places={places}
        t={t}
        required
      />
      <output data-testid="chosen">{`${county.id}/${city.id}`}</output>
    </>
  );
}

const countyInput = () => screen.getByRole('combobox', { name: t('steps:address.county') });
const cityInput = () => screen.getByRole('combobox', { name: t('steps:address.city') });
const chosen = () => screen.getByTestId('chosen').textContent;

describe('CountyPicker', () => {
  it('has a visible label linked to its input and loads all counties once', async () => {
    const places = spyPlaces();
    renderUi(<Pickers places={places} />);
    await waitFor(() => expect(screen.getByLabelText(textPattern(t('steps:address.county')), { selector: 'input' })).toBe(countyInput()));
    await waitFor(() => expect(screen.getByText(t('steps:address.county')).tagName).toBe('LABEL'));
    await waitFor(() => expect(places.counties).toHaveBeenCalledTimes(1));
    expect(places.counties).toHaveBeenCalledWith(undefined);
    await openAndFind(userEvent.setup({ delay: null }), countyInput(), 'Cluj');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Alba', 'Cluj', 'București']);
  });

  it('searches on the server once typing has paused for 500 ms, and is usable by keyboard', async () => {
    const places = spyPlaces();
    const user = userEvent.setup({ delay: null });
    renderUi(<Pickers places={places} />);
    await waitFor(() => expect(places.counties).toHaveBeenCalledTimes(1));
    await user.click(countyInput());
    await user.type(countyInput(), 'bucu');
    expect(places.counties).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(places.counties).toHaveBeenLastCalledWith('bucu'));
    expect(places.counties).toHaveBeenCalledTimes(2);
    await waitFor(() => expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['București']));
    await user.keyboard('{ArrowDown}{Enter}');
    expect(chosen()).toBe('40/null');
    expect(countyInput()).toHaveProperty('value', 'București');
  });

  it('keeps the last answer listed and choosable while a new search loads (a click then is not lost)', async () => {
    const places = spyPlaces();
    let answer: (() => void) | null = null;
    const all = places.counties.getMockImplementation()!;
    const user = userEvent.setup({ delay: null });
    renderUi(<Pickers places={places} />);
    await openAndFind(user, countyInput(), 'Cluj');
    // The next search hangs until the test lets it answer.
    places.counties.mockImplementation((search?: string) => new Promise((resolve) => (answer = () => resolve(all(search)))));
    await user.type(countyInput(), 'clu');
    await waitFor(() => expect(places.counties).toHaveBeenLastCalledWith('clu'));
    await waitFor(() => expect(screen.getByText(t('steps:address.loading'))).toBeTruthy());
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Alba', 'Cluj', 'București']);
    await user.click(await screen.findByRole('option', { name: 'Cluj' }));
    expect(chosen()).toBe('12/null');
    answer!();
  });

  it('shows the chosen name before the list has loaded', () => {
    const places: PlacesService = { counties: () => new Promise(() => {}), cities: () => new Promise(() => {}) };
    renderUi(<Pickers places={places} initial={{ county: 12, countyName: 'Cluj', city: 1202, cityName: 'Turda' }} />);
    expect(countyInput()).toHaveProperty('value', 'Cluj');
    expect(cityInput()).toHaveProperty('value', 'Turda');
  });

  it('shows an empty state and goes back to the chosen name when the list closes', async () => {
    const places = spyPlaces();
    const user = userEvent.setup({ delay: null });
    renderUi(<Pickers places={places} initial={{ county: 12, countyName: 'Cluj' }} />);
    await user.click(countyInput());
    await user.clear(countyInput());
    await user.type(countyInput(), 'xyz');
    await screen.findByText(t('steps:address.noCounty'));
    await user.keyboard('{Escape}');
    expect(countyInput()).toHaveProperty('value', 'Cluj');
    expect(chosen()).toBe('12/null');
  });

  it('retries a failed load when the list opens, and says when it still fails', async () => {
    const places = spyPlaces();
    places.counties.mockRejectedValueOnce(new Error('offline')).mockRejectedValueOnce(new Error('offline'));
    const user = userEvent.setup({ delay: null });
    renderUi(<Pickers places={places} />);
    await user.click(countyInput());
    expect(await screen.findByText(t('steps:address.loadError'))).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(places.counties).toHaveBeenCalledTimes(2); // on mount, then on opening
    await openAndFind(user, countyInput(), 'Cluj');
    expect(places.counties).toHaveBeenCalledTimes(3);
  });
});

describe('CityPicker', () => {
  it('is disabled, with a hint, until a county is chosen', async () => {
    const places = spyPlaces();
    const user = userEvent.setup({ delay: null });
    renderUi(<Pickers places={places} />);
    expect(cityInput()).toHaveProperty('disabled', true);
    const hint = await screen.findByText(t('steps:address.chooseCountyFirst'));
    expect(cityInput().getAttribute('aria-describedby')).toContain(hint.id);
    expect(places.cities).not.toHaveBeenCalled();

    await choose(user, countyInput(), 'Clu', 'Cluj');
    expect(cityInput()).toHaveProperty('disabled', false);
    expect(screen.queryByText(t('steps:address.chooseCountyFirst'))).toBeNull();
    await waitFor(() => expect(places.cities).toHaveBeenCalledWith(12, 0, 25, undefined));
  });

  it('calls places.cities once after the 500 ms debounce with the search term', async () => {
    const places = spyPlaces();
    const user = userEvent.setup({ delay: null });
    renderUi(<Pickers places={places} initial={{ county: 12, countyName: 'Cluj' }} />);
    await waitFor(() => expect(places.cities).toHaveBeenCalledTimes(1));
    await user.click(cityInput());
    await user.type(cityInput(), 'Tur');
    expect(places.cities).toHaveBeenCalledTimes(1);
    await sleep(300);
    expect(places.cities).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(places.cities).toHaveBeenCalledTimes(2));
    expect(places.cities).toHaveBeenLastCalledWith(12, 0, 25, 'Tur');
    await sleep(600);
    expect(places.cities).toHaveBeenCalledTimes(2);
    await user.click(await screen.findByRole('option', { name: 'Turda' }));
    expect(chosen()).toBe('12/1202');
    expect(cityInput()).toHaveProperty('value', 'Turda');
  });

  it('loads the next page of 25 when the list is scrolled near its end (300 ms scroll debounce)', async () => {
    const places = spyPlaces();
    const user = userEvent.setup({ delay: null });
    renderUi(<Pickers places={places} initial={{ county: 12, countyName: 'Cluj' }} />);
    await openAndFind(user, cityInput(), 'Cluj-Napoca');
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(25));
    expect(places.cities).toHaveBeenCalledTimes(1);

    const list = await screen.findByRole('listbox');
    scrollToEnd(list);
    scrollToEnd(list);
    expect(places.cities).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(places.cities).toHaveBeenCalledTimes(2));
    expect(places.cities).toHaveBeenLastCalledWith(12, 25, 25, undefined);
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(50));

    scrollToEnd(list);
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(60));
    expect(places.cities).toHaveBeenLastCalledWith(12, 50, 25, undefined);

    // Everything is loaded: no further requests.
    scrollToEnd(list);
    await sleep(500);
    expect(places.cities).toHaveBeenCalledTimes(3);
  });

  it('shows "Nicio localitate găsită" when the search finds nothing', async () => {
    const places = spyPlaces();
    const user = userEvent.setup({ delay: null });
    renderUi(<Pickers places={places} initial={{ county: 12, countyName: 'Cluj' }} />);
    await user.click(cityInput());
    await user.type(cityInput(), 'Zzz');
    expect(await screen.findByText(t('steps:address.noCity'))).toBeTruthy();
  });

  it('clears the city when the county changes', async () => {
    const places = spyPlaces();
    const user = userEvent.setup({ delay: null });
    renderUi(<Pickers places={places} initial={{ county: 12, countyName: 'Cluj', city: 1202, cityName: 'Turda' }} />);
    expect(cityInput()).toHaveProperty('value', 'Turda');
    await choose(user, countyInput(), 'Alb', 'Alba');
    await waitFor(() => expect(chosen()).toBe('1/null'));
    expect(cityInput()).toHaveProperty('value', '');
    await waitFor(() => expect(places.cities).toHaveBeenLastCalledWith(1, 0, 25, undefined));
    await openAndFind(user, cityInput(), 'Alba Iulia');
    // Only the new county's localities are listed.
    await waitFor(() => expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(CITIES.filter((c) => c.county_id === 1).map((c) => c.name)));
  });

  it('shows its error under the field, linked by aria-describedby and announced', () => {
    const places = spyPlaces();
    renderUi(<CityPicker label={t('steps:address.city')} countyId={12} value={null} onChange={vi.fn()} error="Localitatea este obligatorie." places={places} t={t} />);
    const error = screen.getByRole('alert');
    expect(error.textContent).toBe('Localitatea este obligatorie.');
    expect(cityInput().getAttribute('aria-describedby')).toContain(error.id);
    expect(cityInput().getAttribute('aria-invalid')).toBe('true');
  });
});
