import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { useUploadQueue } from '../../widgets/documents/useUploadQueue';
import type { StepFormContext } from '../../widgets/types';

const pdf = (name: string) => new File(['%PDF-1.4'], name, { type: 'application/pdf' });
const png = (name: string) => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], name, { type: 'image/png' });

/** The engine's `attachFile` as a fake: what a multipart submit would send now, by key. */
function fakeAttach() {
  const sent = new Map<string, string>();
  const attachFile = vi.fn<StepFormContext['attachFile']>((field, file, fileName) => {
    if (file) sent.set(field, fileName ?? 'file');
    else sent.delete(field);
  });
  return { attachFile, sent: () => Object.fromEntries(sent) };
}

// jsdom has no object URLs: numbered fakes, and a record of the revoked ones.
const original = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };
let revoked: string[] = [];
beforeEach(() => {
  revoked = [];
  let n = 0;
  URL.createObjectURL = () => `blob:preview-${++n}`;
  URL.revokeObjectURL = (url: string) => void revoked.push(url);
});
afterEach(() => {
  URL.createObjectURL = original.create;
  URL.revokeObjectURL = original.revoke;
});

describe('useUploadQueue (the documents step\'s chosen files)', () => {
  it('attaches the chosen files as field[i] and re-indexes them when one is removed', () => {
    const { attachFile, sent } = fakeAttach();
    const { result } = renderHook(() => useUploadQueue('files', attachFile, true));
    act(() => result.current.add([pdf('diploma.pdf'), png('foaie-matricola.png'), pdf('atestat.pdf')]));
    expect(sent()).toEqual({ 'files[0]': 'diploma.pdf', 'files[1]': 'foaie-matricola.png', 'files[2]': 'atestat.pdf' });
    // An image gets a preview; a PDF does not (a document icon instead).
    expect(result.current.queue.map((p) => p.preview)).toEqual([null, 'blob:preview-1', null]);

    act(() => result.current.remove(result.current.queue[1].key));
    expect(sent()).toEqual({ 'files[0]': 'diploma.pdf', 'files[1]': 'atestat.pdf' });
    expect(revoked).toEqual(['blob:preview-1']);
  });

  it('sends nothing while inactive ("send later") and attaches again when active', () => {
    const { attachFile, sent } = fakeAttach();
    const { result, rerender } = renderHook(({ active }) => useUploadQueue('driverLicenseFiles', attachFile, active), { initialProps: { active: true } });
    act(() => result.current.add([pdf('permis.pdf')]));
    expect(sent()).toEqual({ 'driverLicenseFiles[0]': 'permis.pdf' });
    rerender({ active: false });
    expect(sent()).toEqual({});
    rerender({ active: true });
    expect(sent()).toEqual({ 'driverLicenseFiles[0]': 'permis.pdf' });
  });

  it('clear empties the list and revokes the previews; leaving the step takes every attachment back', () => {
    const { attachFile, sent } = fakeAttach();
    const { result, unmount } = renderHook(() => useUploadQueue('files', attachFile, true));
    act(() => result.current.add([png('a.png'), png('b.png')]));
    act(() => result.current.clear());
    expect(result.current.queue).toEqual([]);
    expect(sent()).toEqual({});
    expect(revoked).toEqual(['blob:preview-1', 'blob:preview-2']);

    act(() => result.current.add([png('c.png')]));
    expect(sent()).toEqual({ 'files[0]': 'c.png' });
    unmount();
    expect(sent()).toEqual({});
    expect(revoked).toContain('blob:preview-3');
  });
});
