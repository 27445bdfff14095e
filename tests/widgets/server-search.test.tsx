import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { useServerSearch, type SearchPage } from '../../widgets/shared/useServerSearch';

interface Item {
  id: number;
  name: string;
}

const ITEMS: Item[] = Array.from({ length: 60 }, (_, i) => ({ id: i + 1, name: `Localitatea ${i + 1}` }));

/** A server over ITEMS, pages of 25, whose answers the test releases one by one. */
function server() {
  const waiting: Array<() => void> = [];
  const load = vi.fn((term: string, offset: number) => {
    const data = ITEMS.filter((item) => item.name.includes(term));
    return new Promise<SearchPage<Item>>((resolve) => waiting.push(() => resolve({ data: data.slice(offset, offset + 25), total: data.length })));
  });
  const answer = async (index = 0) => {
    await act(async () => waiting.splice(index, 1)[0]());
  };
  return { load, answer, waiting };
}

afterEach(() => vi.useRealTimers());

describe('useServerSearch (the state behind CAEN search and the county/city pickers)', () => {
  it('asks once typing has paused, keeps the last answer listed while the next loads, and drops an older answer', async () => {
    vi.useFakeTimers();
    const srv = server();
    const { result } = renderHook(() => useServerSearch<Item>({ load: srv.load, debounceMs: 500 }));
    expect(srv.load).toHaveBeenCalledWith('', 0);
    await srv.answer();
    expect(result.current.items).toHaveLength(25);

    act(() => result.current.search('Localitatea 1'));
    act(() => result.current.search('Localitatea 12'));
    await act(() => vi.advanceTimersByTimeAsync(499));
    expect(srv.load).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(srv.load).toHaveBeenLastCalledWith('Localitatea 12', 0);
    // While it loads, the last answer stays choosable.
    expect(result.current.loading).toBe(true);
    expect(result.current.items).toHaveLength(25);

    act(() => result.current.search('Localitatea 3'));
    await act(() => vi.advanceTimersByTimeAsync(500));
    // The answer for "Localitatea 12" arrives late: it is not shown.
    await srv.answer(0);
    expect(result.current.loading).toBe(true);
    await srv.answer(0);
    expect(result.current.loading).toBe(false);
    expect(result.current.items.map((i) => i.name)).toEqual(['Localitatea 3', 'Localitatea 30', ...ITEMS.slice(30, 39).map((i) => i.name)]);
  });

  it('below the minimum length asks nothing and is idle; the next search starts from an empty list', async () => {
    vi.useFakeTimers();
    const srv = server();
    const { result } = renderHook(() => useServerSearch<Item>({ load: srv.load, debounceMs: 300, minLength: 3 }));
    expect(result.current.idle).toBe(true);
    act(() => result.current.search('Lo'));
    await act(() => vi.advanceTimersByTimeAsync(300));
    expect(srv.load).not.toHaveBeenCalled();
    act(() => result.current.search('Localitatea 5'));
    await act(() => vi.advanceTimersByTimeAsync(300));
    await srv.answer();
    expect(result.current.items.map((i) => i.name)).toEqual(['Localitatea 5', ...ITEMS.slice(49, 59).map((i) => i.name)]);
    act(() => result.current.search(''));
    await act(() => vi.advanceTimersByTimeAsync(300));
    expect(result.current).toMatchObject({ idle: true, items: [], loading: false });
    act(() => result.current.search('Localitatea 6'));
    await act(() => vi.advanceTimersByTimeAsync(300));
    expect(result.current).toMatchObject({ loading: true, items: [] });
  });

  it('loads further pages one at a time, without repeats, until the total is reached', async () => {
    const srv = server();
    const { result } = renderHook(() => useServerSearch<Item>({ load: srv.load, debounceMs: 0 }));
    await srv.answer();
    act(() => result.current.loadMore());
    act(() => result.current.loadMore());
    expect(srv.load).toHaveBeenCalledTimes(2);
    expect(srv.load).toHaveBeenLastCalledWith('', 25);
    expect(result.current.loadingMore).toBe(true);
    await srv.answer();
    act(() => result.current.loadMore());
    await srv.answer();
    expect(result.current.items.map((i) => i.id)).toEqual(ITEMS.map((i) => i.id));
    act(() => result.current.loadMore());
    expect(srv.load).toHaveBeenCalledTimes(3);
    expect(result.current.loadingMore).toBe(false);
  });

  it('says when a load failed and asks again on retry', async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue({ data: ITEMS.slice(0, 2), total: 2 });
    const { result } = renderHook(() => useServerSearch<Item>({ load, debounceMs: 0 }));
    await act(async () => undefined);
    expect(result.current).toMatchObject({ failed: true, loading: false, items: [] });
    act(() => result.current.retry());
    await act(async () => undefined);
    expect(load).toHaveBeenCalledTimes(2);
    expect(result.current).toMatchObject({ failed: false, items: ITEMS.slice(0, 2) });
  });

  it('asks nothing while disabled (a city before its county)', async () => {
    const load = vi.fn();
    const { result } = renderHook(() => useServerSearch<Item>({ load, debounceMs: 0, enabled: false }));
    await act(async () => undefined);
    expect(load).not.toHaveBeenCalled();
    expect(result.current).toMatchObject({ loading: false, items: [] });
  });
});
