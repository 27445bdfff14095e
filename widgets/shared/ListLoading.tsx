import { HStack, Spinner, Text } from '@chakra-ui/react';
import type { ServerSearch } from './useServerSearch';

/** A line beside a search list saying it is loading ("Se caută…", "Se încarcă mai multe…"); the text is what is read, not the spinner. */
export function ListLoading({ text, size = 'xs' }: { text: string; size?: 'xs' | 'sm' }) {
  return (
    <HStack px="3" py="2" gap="2">
      <Spinner size={size} aria-hidden="true" />
      <Text fontSize="sm">{text}</Text>
    </HStack>
  );
}

/** What a search list's status line says (part of `ServerComboboxTexts`). */
export interface ListStatusTexts {
  empty: string;
  loading: string;
  loadingMore: string;
  failed: string;
  /** Shown while `idle` (nothing asked yet: "at least 3 characters"). */
  idle?: string;
}

interface ListStatusProps {
  search: Pick<ServerSearch<never>, 'loading' | 'loadingMore' | 'failed' | 'idle'>;
  texts: ListStatusTexts;
  /** Options are listed (a new search keeps the last answer listed until its own arrives). */
  listed: boolean;
}

/**
 * What a search list says beside its options (`ServerCombobox`, outside its listbox): a failure,
 * "searching", the idle hint ("at least 3 characters"), nothing found, or the next page loading;
 * nothing while the options speak for themselves.
 */
export function ListStatus({ search: { loading, loadingMore, failed, idle }, texts, listed }: ListStatusProps) {
  if (failed && !loading) return <StatusText color="fg.error">{texts.failed}</StatusText>;
  if (loading) return <ListLoading size={listed ? 'xs' : 'sm'} text={texts.loading} />;
  if (idle && texts.idle) return <StatusText>{texts.idle}</StatusText>;
  if (!listed) return <StatusText>{texts.empty}</StatusText>;
  return loadingMore ? <ListLoading text={texts.loadingMore} /> : null;
}

function StatusText({ children, color = 'fg.muted' }: { children: string; color?: string }) {
  return (
    <Text px="3" py="2" fontSize="sm" color={color}>
      {children}
    </Text>
  );
}
