import { Alert } from '@chakra-ui/react';

/** An error (or success) message announced to screen readers. */
export function FlashAlert({ status = 'error', title, children }: { status?: 'error' | 'success' | 'info' | 'warning'; title?: string; children?: React.ReactNode }) {
  return (
    <Alert.Root status={status} role={status === 'error' ? 'alert' : 'status'}>
      <Alert.Indicator />
      <Alert.Content>
        {title && <Alert.Title>{title}</Alert.Title>}
        {children && <Alert.Description>{children}</Alert.Description>}
      </Alert.Content>
    </Alert.Root>
  );
}
