import { useCallback, useEffect, useMemo, useState, type RefObject } from 'react';
import { isApiError } from './api/client';
import type { T } from './useT';

export interface ServerErrors {
  /** First message per form field. */
  fieldErrors: Record<string, string>;
  /** Messages for fields that are not on the form (`token`, `callbackUrl`): shown above it. */
  otherErrors: string[];
  /** The server's `message` (or a network / generic message), shown as a flash error. */
  flash: string | null;
  /** A field of the form has an error: submit stays disabled until the user edits it. */
  hasFieldErrors: boolean;
  /** Records the errors of a failed call and moves the view to the first erroring field. */
  fail(error: unknown): void;
  /** Typing in a field clears that field's error. */
  clearField(field: string): void;
  reset(): void;
  error(field: string): string | undefined;
}

function prefersReducedMotion(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/**
 * Server-side validation for a form (spec 000 §5): the first message of each field under the
 * field, the view scrolled to (and focused on) the first erroring field in form order, the
 * server message as a flash error. `formRef` is the form whose fields carry the `name`s.
 */
export function useServerErrors(fields: readonly string[], t: T, formRef: RefObject<HTMLFormElement | null>): ServerErrors {
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [otherErrors, setOtherErrors] = useState<string[]>([]);
  const [flash, setFlash] = useState<string | null>(null);
  const [focusRequest, setFocusRequest] = useState(0);
  const fieldsKey = fields.join('|');

  const fail = useCallback(
    (error: unknown) => {
      const known = new Set(fieldsKey.split('|'));
      if (isApiError(error)) {
        const mine: Record<string, string> = {};
        const others: string[] = [];
        for (const [field, messages] of Object.entries(error.fieldErrors)) {
          if (known.has(field)) mine[field] = messages[0];
          else others.push(messages[0]);
        }
        const message = error.status === 0 ? t('common:errors.network') : error.message || (error.status === 422 ? t('common:errors.validation') : t('common:errors.generic'));
        setFieldErrors(mine);
        setOtherErrors(others.filter((m) => m !== message));
        setFlash(message);
        if (Object.keys(mine).length) setFocusRequest((n) => n + 1);
      } else {
        setFieldErrors({});
        setOtherErrors([]);
        setFlash(t('common:errors.generic'));
      }
    },
    [fieldsKey, t],
  );

  useEffect(() => {
    if (!focusRequest) return;
    const first = fieldsKey.split('|').find((f) => fieldErrors[f]);
    if (!first) return;
    const el = formRef.current?.querySelector<HTMLElement>(`[name="${first}"]:not([type="hidden"])`);
    if (!el) return;
    el.scrollIntoView({ block: 'center', behavior: prefersReducedMotion() ? 'auto' : 'smooth' });
    el.focus({ preventScroll: true });
    // Only when a new failure asked for it, not on every edit.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focusRequest]);

  const clearField = useCallback((field: string) => {
    setFieldErrors((prev) => {
      if (!(field in prev)) return prev;
      const next = { ...prev };
      delete next[field];
      return next;
    });
  }, []);

  const reset = useCallback(() => {
    setFieldErrors({});
    setOtherErrors([]);
    setFlash(null);
  }, []);

  return useMemo(
    () => ({
      fieldErrors,
      otherErrors,
      flash,
      hasFieldErrors: Object.keys(fieldErrors).length > 0,
      fail,
      clearField,
      reset,
      error: (field: string) => fieldErrors[field],
    }),
    [fieldErrors, otherErrors, flash, fail, clearField, reset],
  );
}
