import { beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { useState } from 'react';
import { CaenSearch, caenSearchTexts, type CaenSearchTexts } from '../../widgets/caen-search';
import { CountyPicker } from '../../widgets/county-city';
import type { CaenCode } from '../../widgets/types';
import { loadServerCombobox } from '../../widgets/shared/LazyServerCombobox';
import { searchTypedOver } from '../../widgets/shared/useServerSearch';
import { t } from '../engine/render';
import { renderUi, spyPlaces } from './helpers';

/**
 * The shared server combobox (widgets/shared/ServerCombobox.tsx) as the applicant meets it (issue 31):
 * changing a chosen item starts a new search at once, a late write of the chosen label never
 * overwrites what is typed, the list's states are said beside the listbox (never inside it), and the
 * list is drawn inside the field. Through the CAEN search (the overview) and the county picker.
 */

const CODES: CaenCode[] = [
  { id: 6201, code: '6201', name: 'Activități de realizare a soft-ului la comandă' },
  { id: 6202, code: '6202', name: 'Activități de consultanță în tehnologia informației' },
  { id: 6209, code: '6209', name: 'Alte activități de servicii privind tehnologia informației' },
];
const label = (code: CaenCode) => `${code.code} – ${code.name}`;

// The overview's texts, from the locale file (as widgets/overview/CaenRows.tsx builds them).
const TEXTS: CaenSearchTexts = caenSearchTexts(t);
const PRIMARY = t('steps:overview.primary');

function searchOver(codes: CaenCode[]) {
  return vi.fn(async (term: string, offset: number, size: number) => {
    const data = codes.filter((c) => c.code.startsWith(term) || c.name.toLowerCase().includes(term.toLowerCase()));
    return { data: data.slice(offset, offset + size), total: data.length };
  });
}

/** A CAEN row as the overview draws it, with the chosen code kept by the parent. */
function Row({ search, initial }: { search: ReturnType<typeof searchOver>; initial: CaenCode | null }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <CaenSearch id="caen-0" label={PRIMARY} value={value} onChange={setValue} search={search} texts={TEXTS} />
      <span data-testid="chosen">{value?.code ?? ''}</span>
    </>
  );
}

const input = () => screen.getByRole<HTMLInputElement>('combobox', { name: PRIMARY });
const chosen = () => screen.getByTestId('chosen').textContent;

beforeAll(async () => {
  await loadServerCombobox();
});

describe('ServerCombobox: changing a chosen item', () => {
  it('focusing a field that shows the chosen code empties it for a new search (the code as its placeholder); typed key by key, it searches', async () => {
    const search = searchOver(CODES);
    const user = userEvent.setup({ delay: null });
    renderUi(<Row search={search} initial={CODES[1]} />);
    expect(input().value).toBe(label(CODES[1]));

    await user.click(input());
    expect(input().value).toBe('');
    expect(input().placeholder).toBe(label(CODES[1]));
    // The idle hint while fewer than 3 characters are typed.
    expect(within(screen.getByRole('status')).getByText(TEXTS.hint)).toBeTruthy();
    await user.keyboard('6');
    await user.keyboard('2');
    await user.keyboard('0');
    expect(input().value).toBe('620');
    expect(await screen.findByRole('option', { name: label(CODES[0]) })).toBeTruthy();
    expect(search).toHaveBeenLastCalledWith('620', 0, 25);
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(CODES.map(label));

    await user.click(screen.getByRole('option', { name: label(CODES[2]) }));
    expect(chosen()).toBe('6209');
    expect(input().value).toBe(label(CODES[2]));
    expect(input().placeholder).toBe(TEXTS.placeholder);
  });

  it('Escape, or leaving the field, without a choice shows the chosen code again and keeps it', async () => {
    const search = searchOver(CODES);
    const user = userEvent.setup({ delay: null });
    renderUi(
      <>
        <Row search={search} initial={CODES[1]} />
        <button type="button">Mai departe</button>
      </>,
    );
    await user.click(input());
    await user.keyboard('6201');
    expect(await screen.findByRole('option', { name: label(CODES[0]) })).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(input().value).toBe(label(CODES[1]));
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(chosen()).toBe('6202');

    await user.click(input());
    expect(input().value).toBe('');
    await user.keyboard('62');
    await user.tab();
    expect(document.activeElement).not.toBe(input());
    expect(input().value).toBe(label(CODES[1]));
    expect(chosen()).toBe('6202');
    // The list closes (as the applicant sees it go) before they come back to the field.
    await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
    // The search forgot the text: the next visit starts from the idle hint.
    await user.click(input());
    expect(input().value).toBe('');
    await waitFor(() => expect(within(screen.getByRole('status')).getByText(TEXTS.hint)).toBeTruthy());
  });

  it('where the chosen code is shown in the focused field (after a choice, after Escape), a key starts a new search instead of editing it', async () => {
    const search = searchOver(CODES);
    const user = userEvent.setup({ delay: null });
    renderUi(<Row search={search} initial={CODES[1]} />);
    await user.click(input());
    await user.keyboard('620');
    await user.click(await screen.findByRole('option', { name: label(CODES[0]) }));
    expect(input().value).toBe(label(CODES[0]));
    expect(document.activeElement).toBe(input());

    // The caret after the label (where a phone puts it): the key replaces the label.
    input().setSelectionRange(input().value.length, input().value.length);
    await user.keyboard('6');
    expect(input().value).toBe('6');
    await user.keyboard('20');
    expect(input().value).toBe('620');
    await user.keyboard('{Escape}');
    expect(input().value).toBe(label(CODES[0]));

    // All of it selected and typed over; a deletion empties the field.
    input().select();
    await user.keyboard('62');
    expect(input().value).toBe('62');
    await user.keyboard('{Escape}');
    expect(input().value).toBe(label(CODES[0]));
    await user.keyboard('{Backspace}');
    expect(input().value).toBe('');
    expect(chosen()).toBe('6201');
  });

  it('a tap that gives the focus to the list keeps the search; the choice made there shows the new code when the focus comes back', async () => {
    const search = searchOver(CODES);
    const user = userEvent.setup({ delay: null });
    renderUi(<Row search={search} initial={CODES[1]} />);
    await user.click(input());
    await user.keyboard('620');
    const option = await screen.findByRole('option', { name: label(CODES[2]) });
    // Some touch browsers focus the list itself on a tap.
    screen.getByRole('listbox').focus();
    expect(input().value).toBe('620');
    await user.click(option);
    expect(chosen()).toBe('6209');
    await waitFor(() => expect(document.activeElement).toBe(input()));
    expect(input().value).toBe(label(CODES[2]));
  });

  it('a new label of the chosen code arriving while the applicant types never overwrites what is typed', async () => {
    const search = searchOver(CODES);
    const user = userEvent.setup({ delay: null });
    const renamed = { ...CODES[1], name: 'Consultanță IT (denumire nouă)' };
    const field = (value: CaenCode) => (
      <ChakraProvider value={defaultSystem}>
        <CaenSearch id="caen-0" label={PRIMARY} value={value} onChange={() => {}} search={search} texts={TEXTS} />
      </ChakraProvider>
    );
    const view = renderUi(<CaenSearch id="caen-0" label={PRIMARY} value={CODES[1]} onChange={() => {}} search={search} texts={TEXTS} />);
    await user.click(input());
    await user.keyboard('6');
    // The save's answer (the same code, named anew) re-renders the field mid-typing.
    view.rerender(field(renamed));
    expect(input().value).toBe('6');
    await user.keyboard('20');
    expect(input().value).toBe('620');
    expect(input().placeholder).toBe(label(renamed));
    await waitFor(() => expect(search).toHaveBeenLastCalledWith('620', 0, 25));
    await user.tab();
    expect(input().value).toBe(label(renamed));
  });
});

describe('ServerCombobox: the open list', () => {
  it('is drawn inside the field; the listbox holds only options, and "nothing found" is said in a polite status beside it', async () => {
    const search = searchOver(CODES);
    const user = userEvent.setup({ delay: null });
    renderUi(<Row search={search} initial={null} />);
    await user.click(input());
    await user.keyboard('999');
    const status = screen.getByRole('status');
    await waitFor(() => expect(status.textContent).toBe(TEXTS.empty));
    const listbox = screen.getByRole('listbox', { name: PRIMARY });
    expect(input().getAttribute('aria-controls')).toBe(listbox.id);
    expect(listbox.children).toHaveLength(0);
    expect(listbox.contains(status)).toBe(false);
    // In the field, not in a portal at the end of the page.
    const field = input().closest('[data-scope=combobox][data-part=root]')!;
    expect(field.contains(listbox)).toBe(true);
    expect(field.contains(status)).toBe(true);

    // With answers: options only in the listbox, and nothing to say.
    await user.clear(input());
    await user.keyboard('620');
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(3));
    expect([...listbox.children].every((child) => child.getAttribute('role') === 'option')).toBe(true);
    expect(status.textContent).toBe('');
  });

  it('says when it searches and when the search failed, beside the listbox', async () => {
    let fail = () => {};
    const search = vi.fn(() => new Promise<{ data: CaenCode[]; total: number }>((_, reject) => (fail = () => reject(new Error('offline')))));
    const user = userEvent.setup({ delay: null });
    renderUi(<Row search={search} initial={null} />);
    await user.click(input());
    await user.keyboard('620');
    const status = screen.getByRole('status');
    await waitFor(() => expect(status.textContent).toBe(TEXTS.loading));
    expect(screen.getByRole('listbox').children).toHaveLength(0);
    // "Searching" shows from the keystroke; the request itself leaves after the debounce: fail that one.
    await waitFor(() => expect(search).toHaveBeenCalled());
    fail();
    await waitFor(() => expect(status.textContent).toBe(TEXTS.failed));
    expect(screen.getByRole('listbox').children).toHaveLength(0);
  });

  it('a code found through the old CAEN Rev.2 code says which one it replaces, on a second line read with the option', async () => {
    const rev3: CaenCode[] = [
      { id: 1, code: '6210', name: 'Activități de realizare a soft-ului la comandă', replaces: ['6201'] },
      { id: 2, code: '6220', name: 'Activități de consultanță și management în tehnologia informației', replaces: ['6202', '6209'] },
      { id: 3, code: '6201', name: 'Activități de programare' },
    ];
    const search = vi.fn(async () => ({ data: rev3, total: 3 }));
    const user = userEvent.setup({ delay: null });
    renderUi(<Row search={search} initial={null} />);
    await user.click(input());
    await user.keyboard('620');
    const first = await screen.findByRole('option', { name: `${label(rev3[0])} ${TEXTS.replaces!(['6201'])}` });
    expect(within(first).getByText(t('steps:overview.searchReplaces', { codes: '6201' }))).toBeTruthy();
    expect(screen.getByRole('option', { name: `${label(rev3[1])} ${t('steps:overview.searchReplacesMany', { codes: '6202, 6209' })}` })).toBeTruthy();
    expect(screen.getByRole('option', { name: label(rev3[2]) })).toBeTruthy();
    await user.click(first);
    expect(chosen()).toBe('6210');
    expect(input().value).toBe(label(rev3[0]));
  });

  it('the county picker: its chosen county is changed by typing at once, and "no county" is said beside a valid listbox', async () => {
    const places = spyPlaces();
    const user = userEvent.setup({ delay: null });
    function County() {
      const [county, setCounty] = useState<{ id: number | null; name: string }>({ id: 12, name: 'Cluj' });
      return <CountyPicker label={t('steps:address.county')} value={county.id} valueName={county.name} onChange={(id, name) => setCounty({ id, name })} places={places} t={t} />;
    }
    renderUi(<County />);
    const county = screen.getByRole<HTMLInputElement>('combobox', { name: t('steps:address.county') });
    expect(county.value).toBe('Cluj');
    await user.click(county);
    expect(county.value).toBe('');
    expect(county.placeholder).toBe('Cluj');
    await user.keyboard('xyz');
    const status = screen.getByRole('status');
    await waitFor(() => expect(status.textContent).toBe(t('steps:address.noCounty')));
    expect(screen.getByRole('listbox').children).toHaveLength(0);
    await user.clear(county);
    await user.keyboard('Alb');
    await user.click(await screen.findByRole('option', { name: 'Alba' }));
    expect(county.value).toBe('Alba');
  });
});

describe('searchTypedOver (what a key over the shown label means)', () => {
  const shown = '6202 – Activități de consultanță';
  it('a key after, before or inside the label: that key alone', () => {
    expect(searchTypedOver(shown, `${shown}6`, 'insertText')).toBe('6');
    expect(searchTypedOver(shown, `6${shown}`, 'insertText')).toBe('6');
    expect(searchTypedOver(shown, `6202 – Acti6vități de consultanță`, 'insertText')).toBe('6');
    expect(searchTypedOver(shown, `${shown}620`, 'insertFromPaste')).toBe('620');
  });
  it('a replaced selection is the search as typed; a deletion empties the field', () => {
    expect(searchTypedOver(shown, '620', 'insertText')).toBe('620');
    expect(searchTypedOver(shown, '6', 'insertText')).toBe('6');
    expect(searchTypedOver(shown, shown.slice(0, -1), 'deleteContentBackward')).toBe('');
    expect(searchTypedOver('', 'Cl', '')).toBe('Cl');
  });
});
