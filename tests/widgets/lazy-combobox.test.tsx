import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CaenSearch, type CaenSearchTexts } from '../../widgets/caen-search';
import type { CaenCode } from '../../widgets/types';
import { loadServerCombobox } from '../../widgets/shared/LazyServerCombobox';
import { renderUi } from './helpers';
import { t } from '../engine/render';

/** The combobox's chunk arrives when the test says so (a phone's connection: after the step is drawn). */
const chunk = vi.hoisted(() => {
  let release = () => {};
  const arrived = new Promise<void>((resolve) => (release = resolve));
  return { arrived, release: () => release() };
});
vi.mock('../../widgets/shared/ServerCombobox', async (importOriginal) => {
  await chunk.arrived;
  return importOriginal();
});

const CODES: CaenCode[] = [
  { id: 6201, code: '6201', name: 'Activități de realizare a soft-ului la comandă' },
  { id: 6202, code: '6202', name: 'Activități de consultanță în tehnologia informației' },
];
const TEXTS: CaenSearchTexts = {
  placeholder: 'Caută după cod sau denumire',
  hint: t('steps:overview.searchHint'),
  empty: 'Niciun cod găsit',
  loading: t('steps:overview.searchLoading'),
  loadingMore: 'Se încarcă mai multe…',
  failed: 'Căutarea nu a reușit.',
  toggle: t('steps:address.showList'),
};

/** What a screen reader reads after the name: the texts its aria-describedby names, in order. */
const description = (el: HTMLElement) =>
  (el.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent)
    .join(' ');

/** Each part of the combobox (`data-part`) with its emotion class: the same styles give the same class. */
const partStyles = () =>
  Object.fromEntries(
    ['root', 'label', 'control', 'input', 'trigger', 'indicators'].map((part) => {
      const trigger = document.querySelector('[data-scope=combobox][data-part=trigger]');
      const el = part === 'indicators' ? trigger?.parentElement : document.querySelector(`[data-scope=combobox][data-part=${part}]`);
      return [part, [...(el?.classList ?? [])].filter((name) => name.startsWith('css-')).join(' ')];
    }),
  );

describe('LazyServerCombobox (the overview’s CAEN rows)', () => {
  it('a stand-in showing the chosen code is emptied for a new search when focused (the code as its placeholder), and shows the code again when left', async () => {
    const search = vi.fn(async () => ({ data: CODES, total: 2 }));
    const user = userEvent.setup({ delay: null });
    renderUi(
      <>
        <CaenSearch label="Cod CAEN secundar 1" value={CODES[1]} onChange={() => {}} search={search} texts={TEXTS} />
        <button type="button">Mai departe</button>
      </>,
    );
    const standIn = screen.getByLabelText<HTMLInputElement>('Cod CAEN secundar 1');
    expect(screen.queryByRole('combobox')).toBeNull();
    expect(standIn.value).toBe('6202 – Activități de consultanță în tehnologia informației');
    await user.click(standIn);
    expect(standIn.value).toBe('');
    expect(standIn.placeholder).toBe('6202 – Activități de consultanță în tehnologia informației');
    await user.keyboard('620');
    expect(standIn.value).toBe('620');
    await user.tab();
    expect(standIn.value).toBe('6202 – Activități de consultanță în tehnologia informației');
    expect(standIn.placeholder).toBe('Caută după cod sau denumire');
    expect(search).not.toHaveBeenCalled();
  });

  it('draws a labelled stand-in at once; the combobox that replaces it keeps what was typed there and the focus', async () => {
    const search = vi.fn(async (term: string) => ({ data: CODES.filter((c) => c.code.startsWith(term)), total: 1 }));
    const user = userEvent.setup({ delay: null });
    renderUi(<CaenSearch id="caen-0" label="Cod CAEN principal" value={null} onChange={() => {}} search={search} texts={TEXTS} error="Alege codul CAEN principal." />);

    // Before the chunk: a text input with its label, hint and error, no list to open.
    const standIn = screen.getByLabelText('Cod CAEN principal');
    expect(standIn.tagName).toBe('INPUT');
    expect(standIn.id).toBe('caen-0');
    expect(standIn.getAttribute('placeholder')).toBe('Caută după cod sau denumire');
    expect(description(standIn)).toBe(`${TEXTS.hint} Alege codul CAEN principal.`);
    expect(standIn.getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByRole('combobox')).toBeNull();
    await user.click(standIn);
    await user.type(standIn, '620');
    expect((standIn as HTMLInputElement).value).toBe('620');
    expect(search).not.toHaveBeenCalled();

    const looks = partStyles();
    chunk.release();
    const combobox = await screen.findByRole('combobox', { name: 'Cod CAEN principal' });
    expect(standIn.isConnected).toBe(false);
    // The same look and size: each part has the same styles (so no shift when one replaces the other).
    expect(partStyles()).toEqual(looks);
    expect(Object.values(looks).every((name) => name !== '')).toBe(true);
    expect(combobox.id).toBe('caen-0');
    expect((combobox as HTMLInputElement).value).toBe('620');
    expect(document.activeElement).toBe(combobox);
    expect(description(combobox)).toBe(`${TEXTS.hint} Alege codul CAEN principal.`);
    // The search for the typed text runs, and its answer is listed.
    await waitFor(() => expect(search).toHaveBeenCalledWith('620', 0, 25));
    expect(await screen.findByRole('option', { name: /^6201 – / })).toBeTruthy();
    await user.type(combobox, '2');
    expect((combobox as HTMLInputElement).value).toBe('6202');
  });

  it('draws the combobox at once when its chunk is there; nothing typed: it shows the chosen code, unfocused, no search', async () => {
    chunk.release();
    await loadServerCombobox();
    const search = vi.fn(async () => ({ data: CODES, total: 2 }));
    renderUi(<CaenSearch label="Cod CAEN secundar 1" value={CODES[1]} onChange={() => {}} search={search} texts={TEXTS} />);
    const combobox = screen.getByRole('combobox', { name: 'Cod CAEN secundar 1' });
    expect((combobox as HTMLInputElement).value).toBe('6202 – Activități de consultanță în tehnologia informației');
    expect(document.activeElement).not.toBe(combobox);
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(search).not.toHaveBeenCalled();
  });
});
