import { useEffect, useState } from 'react';
import type { CaenCode, CaenService, OverviewData, StepServices } from '../types';
import { CAEN_PAGE_SIZE } from '../caen-search';
import { useLive } from '../shared/useLive';
import { plain, serverMessage } from './overview-rules';

export interface CaenCodesOptions {
  caen: CaenService;
  t: StepServices['t'];
  notify: StepServices['notify'];
  /** Codes preset and locked (the credit partner: 8291, 6619), first and in this order. */
  lockedCodes: string[];
  maxCodes: number;
  /** Operators add the codes: nothing is preset. */
  byOperator: boolean;
  /** After each save the server took. */
  onSaved?(): void;
}

/**
 * The overview's data (`caen.overview()`, loaded once) and its CAEN rows, primary first (spec 001
 * §5): each change is saved at once (`caen.updateFormData({ codes })`); a refused change keeps
 * the saved codes and shows the server's message. The partner's locked codes are preset first.
 */
export function useCaenCodes({ caen, t, notify, lockedCodes, maxCodes, byOperator, onSaved }: CaenCodesOptions) {
  const [data, setData] = useState<OverviewData | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [codes, setCodes] = useState<CaenCode[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  // Saves still on their way: "Pasul următor" waits for them, or the send would race the codes' write.
  const [pending, setPending] = useState(0);
  const live = useLive();

  /** `edited`: the applicant changed the codes (not the partner's preset on arrival), so the toast says it was saved. */
  async function save(next: CaenCode[], previous: CaenCode[], edited = true) {
    setCodes(next);
    setError(null);
    setSaved(false);
    setPending((n) => n + 1);
    try {
      const result = await caen.updateFormData({ codes: next.map((c) => c.id) });
      if (!live.current) return;
      setCodes(plain(result.codes));
      setSaved(edited);
      onSaved?.();
      if (edited) notify?.('success', t('steps:overview.saved'));
    } catch (failure) {
      if (!live.current) return;
      setCodes(previous);
      setError(serverMessage(failure, 'codes', t('steps:overview.saveError')));
    } finally {
      if (live.current) setPending((n) => n - 1);
    }
  }

  // The request's codes, PFA name, e-mail and phone; the partner's locked codes are preset.
  useEffect(() => {
    let cancelled = false;
    caen
      .overview()
      .then(async (loaded) => {
        if (cancelled) return;
        setData(loaded);
        const current = plain(loaded.codes);
        setCodes(current);
        const missing = lockedCodes.some((code, i) => current[i]?.code !== code);
        if (!lockedCodes.length || byOperator || !missing || !loaded.editable) return;
        const found = await Promise.all(
          lockedCodes.map((code) => caen.search(code, 0, CAEN_PAGE_SIZE).then((page) => page.data.find((c) => c.code === code) ?? null)),
        );
        if (cancelled || found.some((c) => !c)) return;
        const locked = found as CaenCode[];
        const rest = current.filter((c) => !lockedCodes.includes(c.code));
        await save([...locked, ...rest].slice(0, maxCodes), current, false);
      })
      .catch(() => !cancelled && setLoadFailed(true));
    return () => {
      cancelled = true;
    };
    // Loaded once per step.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return {
    data,
    loadFailed,
    codes,
    error,
    saved,
    /** A save of the codes is on its way (the partner's preset on arrival, or the applicant's change). */
    saving: pending > 0,
    /** The codes as the server now has them (after it refused the send for them: another tab may have changed them). */
    async reload() {
      try {
        const loaded = await caen.overview();
        if (live.current) setCodes(plain(loaded.codes));
      } catch {
        // The codes shown stay; the step's error says what to do.
      }
    },
    isLocked: (code: CaenCode | undefined) => Boolean(code && lockedCodes.includes(code.code)),
    replaceAt(index: number, code: CaenCode) {
      const next = [...codes];
      next[index] = code;
      void save(next, codes);
    },
    removeAt: (index: number) => void save(codes.filter((_, i) => i !== index), codes),
    append: (code: CaenCode) => void save([...codes, code], codes),
  };
}

export type CaenCodes = ReturnType<typeof useCaenCodes>;
